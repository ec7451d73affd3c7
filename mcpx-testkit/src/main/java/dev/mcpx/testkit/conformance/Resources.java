package dev.mcpx.testkit.conformance;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The fixture resources: two static ones, a template, and one that changes on demand. */
final class Resources {

    static final String STATIC_TEXT = "test://static-text";
    static final String STATIC_BINARY = "test://static-binary";
    static final String WATCHED = "test://watched-resource";
    static final String TEMPLATE = "test://template/{id}/data";
    private static final Pattern TEMPLATE_URI = Pattern.compile("test://template/([^/]+)/data");

    private final ChangeFeed changes;

    Resources(ChangeFeed changes) {
        this.changes = changes;
    }

    ObjectNode list() {
        ObjectNode result = Json.object();
        ArrayNode resources = result.putArray("resources");
        resources.add(resource(STATIC_TEXT, "static-text", "A static text resource for testing", "text/plain"));
        resources.add(resource(STATIC_BINARY, "static-binary", "A static binary resource (a PNG image)", "image/png"));
        resources.add(resource(WATCHED, "watched-resource",
                "A resource that changes when test_trigger_resource_update is called", "text/plain"));
        return result;
    }

    ObjectNode templates() {
        ObjectNode result = Json.object();
        result.putArray("resourceTemplates").addObject()
                .put("uriTemplate", TEMPLATE)
                .put("name", "template")
                .put("title", "Resource Template")
                .put("description", "A resource template with parameter substitution")
                .put("mimeType", "application/json");
        return result;
    }

    /**
     * The read result, or an error for an unknown URI: -32602 with data.uri in 2026-07-28
     * (SEP-2164), -32002 in 2025-11-25.
     */
    ObjectNode read(String uri, boolean modern) {
        if (uri == null) {
            throw RpcError.of(RpcError.INVALID_PARAMS, "resources/read needs params.uri").exception();
        }
        ObjectNode contents = contentsFor(uri);
        if (contents == null) {
            ObjectNode data = Json.object().put("uri", uri);
            int code = modern ? RpcError.INVALID_PARAMS : RpcError.RESOURCE_NOT_FOUND;
            throw new RpcError(code, "Resource not found: " + uri, data).exception();
        }
        ObjectNode result = Json.object();
        result.putArray("contents").add(contents);
        return result;
    }

    private ObjectNode contentsFor(String uri) {
        if (uri == null) {
            return null;
        }
        switch (uri) {
            case STATIC_TEXT:
                return Json.object().put("uri", uri).put("mimeType", "text/plain")
                        .put("text", "This is the content of the static text resource.");
            case STATIC_BINARY:
                return Json.object().put("uri", uri).put("mimeType", "image/png").put("blob", Media.PNG_BASE64);
            case WATCHED:
                return Json.object().put("uri", uri).put("mimeType", "text/plain")
                        .put("text", "Watched resource content, version " + changes.watchedVersion());
            default:
                Matcher template = TEMPLATE_URI.matcher(uri);
                if (!template.matches()) {
                    return null;
                }
                String id = template.group(1);
                ObjectNode data = Json.object().put("id", id).put("templateTest", true).put("data", "Data for ID: " + id);
                return Json.object().put("uri", uri).put("mimeType", "application/json").put("text", Json.write(data));
        }
    }

    private static ObjectNode resource(String uri, String name, String description, String mimeType) {
        return Json.object().put("uri", uri).put("name", name).put("description", description).put("mimeType", mimeType);
    }
}

package dev.mcpx.front.http;

import dev.mcpx.config.FrontAuth;
import dev.mcpx.protocol.Json;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The front as an OAuth protected resource (RFC 9728): one resource per endpoint, {@code /mcp}
 * and each {@code /mcp/<profile>}, each with its metadata document at the well-known path the MCP
 * authorization spec has clients try first, and the challenge a 401 carries to point there.
 */
final class ProtectedResource {

    static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";
    private static final String LOCAL_PATH = "/mcp";

    private final FrontAuth auth;
    private final Supplier<URI> boundMcpUri;

    /** {@code boundMcpUri}: where the front listens, the resource when the config names none. */
    ProtectedResource(FrontAuth auth, Supplier<URI> boundMcpUri) {
        this.auth = auth;
        this.boundMcpUri = boundMcpUri;
    }

    /** The resource identifier of {@code /mcp} (profile null) or {@code /mcp/<profile>}. */
    URI resource(String profile) {
        String base = auth.resource().orElseGet(boundMcpUri).toString().replaceAll("/+$", "");
        return URI.create(profile == null ? base : base + "/" + profile);
    }

    /**
     * The {@code aud} values a token may carry at an endpoint: its own resource, the whole
     * gateway's ({@code /mcp} covers its profiles), and any configured audience.
     */
    Set<String> audiences(String profile) {
        Set<String> audiences = new LinkedHashSet<>();
        audiences.add(resource(profile).toString());
        audiences.add(resource(null).toString());
        audiences.addAll(auth.audiences());
        return audiences;
    }

    /** Where the metadata of an endpoint is: the well-known path with the resource's path appended. */
    URI metadataUrl(String profile) {
        URI resource = resource(profile);
        String path = resource.getRawPath() == null ? "" : resource.getRawPath();
        return URI.create(resource.getScheme() + "://" + resource.getRawAuthority() + WELL_KNOWN + path);
    }

    /**
     * The endpoint a well-known request is about: "" for {@code /mcp} (also the bare well-known
     * path), a profile name, or null when the path names no endpoint of this front. Besides
     * {@code /mcp}, the path of the configured resource is understood, for a proxy that forwards
     * its own path unchanged.
     */
    String endpointOf(String wellKnownPath) {
        String suffix = wellKnownPath.substring(WELL_KNOWN.length());
        String configured = auth.resource().map(URI::getRawPath).orElse(LOCAL_PATH).replaceAll("/+$", "");
        if (suffix.isEmpty() || suffix.equals("/")) {
            return "";
        }
        for (String base : List.of(LOCAL_PATH, configured)) {
            if (base.isEmpty()) {
                continue;
            }
            if (suffix.equals(base)) {
                return "";
            }
            if (suffix.startsWith(base + "/") && suffix.length() > base.length() + 1
                    && suffix.indexOf('/', base.length() + 1) < 0) {
                return suffix.substring(base.length() + 1);
            }
        }
        return null;
    }

    /** The metadata document of an endpoint. */
    ObjectNode metadata(String profile) {
        ObjectNode document = Json.object();
        document.put("resource", resource(profile).toString());
        document.putArray("authorization_servers").add(auth.issuer());
        document.putArray("bearer_methods_supported").add("header");
        if (!auth.scopes().isEmpty()) {
            ArrayNode scopes = document.putArray("scopes_supported");
            auth.scopes().forEach(scopes::add);
        }
        document.put("resource_name", profile == null ? "mcpx" : "mcpx, profile " + profile);
        return document;
    }

    /** The {@code WWW-Authenticate} value for a request without a usable token (RFC 6750 section 3, RFC 9728 section 5.1). */
    String challenge(String profile, String error, String description) {
        StringBuilder value = new StringBuilder("Bearer resource_metadata=\"").append(metadataUrl(profile)).append('"');
        if (!auth.scopes().isEmpty()) {
            value.append(", scope=\"").append(String.join(" ", auth.scopes())).append('"');
        }
        if (error != null) {
            value.append(", error=\"").append(error).append('"');
            value.append(", error_description=\"").append(quotable(description)).append('"');
        }
        return value.toString();
    }

    /** The characters RFC 6750 allows in {@code error_description}: printable ASCII without {@code "} and {@code \}. */
    private static String quotable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            out.append(c >= 0x20 && c <= 0x7e && c != '"' && c != '\\' ? c : '\'');
        }
        return out.toString();
    }

    /** Scopes every token must carry. */
    List<String> requiredScopes() {
        return auth.scopes();
    }

    /** The claim that names a token's profile, or null. */
    String profileClaim() {
        return auth.profileClaim().orElse(null);
    }
}

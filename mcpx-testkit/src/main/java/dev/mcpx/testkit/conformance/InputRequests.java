package dev.mcpx.testkit.conformance;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Building MRTR input requests and reading the client's input responses. */
final class InputRequests {

    private InputRequests() {
    }

    /** key, request, key, request, ... as an InputRequests map. */
    static ObjectNode of(Object... keysAndRequests) {
        ObjectNode requests = Json.object();
        for (int i = 0; i < keysAndRequests.length; i += 2) {
            requests.set((String) keysAndRequests[i], (JsonNode) keysAndRequests[i + 1]);
        }
        return requests;
    }

    /** elicitation/create in form mode; properties are name, JSON-schema pairs; all are required. */
    static ObjectNode elicitation(String message, Object... properties) {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode props = schema.putObject("properties");
        ArrayNode required = schema.putArray("required");
        for (int i = 0; i < properties.length; i += 2) {
            props.set((String) properties[i], (JsonNode) properties[i + 1]);
            required.add((String) properties[i]);
        }
        return elicitation(message, schema);
    }

    static ObjectNode elicitation(String message, ObjectNode requestedSchema) {
        ObjectNode params = Json.object().put("mode", "form").put("message", message);
        params.set("requestedSchema", requestedSchema);
        return request("elicitation/create", params);
    }

    static ObjectNode sampling(String prompt, int maxTokens) {
        ObjectNode params = Json.object();
        params.putArray("messages").addObject().put("role", "user").set("content", Json.text(prompt));
        params.put("maxTokens", maxTokens);
        return request("sampling/createMessage", params);
    }

    static ObjectNode listRoots() {
        return request("roots/list", Json.object());
    }

    private static ObjectNode request(String method, ObjectNode params) {
        ObjectNode request = Json.object().put("method", method);
        request.set("params", params);
        return request;
    }

    static ObjectNode type(String type) {
        return Json.object().put("type", type);
    }

    /** The client capability an input request needs. */
    static String capabilityFor(String method) {
        return switch (method) {
            case "elicitation/create" -> "elicitation";
            case "sampling/createMessage" -> "sampling";
            case "roots/list" -> "roots";
            default -> throw new IllegalArgumentException("not an input request method: " + method);
        };
    }

    /**
     * The inputResponses of a call: null when it carried none; an error when present but not an
     * object (including an explicit null), since that is a malformed request, not missing input.
     */
    static ObjectNode responses(CallContext call) {
        JsonNode responses = call.inputResponses();
        if (responses == null) {
            return null;
        }
        if (!responses.isObject()) {
            throw RpcError.of(RpcError.INVALID_PARAMS, "inputResponses must be an object").exception();
        }
        return (ObjectNode) responses;
    }

    /** One response by key: null when absent, an error when it is not a result object. */
    static ObjectNode response(ObjectNode responses, String key) {
        JsonNode response = responses == null ? null : responses.get(key);
        if (response == null) {
            return null;
        }
        if (!response.isObject()) {
            throw RpcError.of(RpcError.INVALID_PARAMS, "inputResponses." + key + " must be a result object")
                    .exception();
        }
        return (ObjectNode) response;
    }

    /** An elicitation answer's content field, or null when the user declined or cancelled. */
    static ObjectNode acceptedContent(ObjectNode elicitResult, String key) {
        String action = Json.string(elicitResult, "action");
        if (action == null || !(action.equals("accept") || action.equals("decline") || action.equals("cancel"))) {
            throw RpcError.of(RpcError.INVALID_PARAMS, "inputResponses." + key + ".action must be accept, decline or cancel")
                    .exception();
        }
        return action.equals("accept") ? Json.objectOrEmpty(elicitResult.get("content")) : null;
    }

    /** The text of a sampling answer (CreateMessageResult). */
    static String sampledText(ObjectNode createMessageResult, String key) {
        String text = Json.string(createMessageResult.get("content"), "text");
        if (text == null) {
            throw RpcError.of(RpcError.INVALID_PARAMS, "inputResponses." + key + ".content.text is missing")
                    .exception();
        }
        return text;
    }

    /** The root URIs of a roots/list answer. */
    static String rootUris(ObjectNode listRootsResult, String key) {
        JsonNode roots = listRootsResult.get("roots");
        if (roots == null || !roots.isArray()) {
            throw RpcError.of(RpcError.INVALID_PARAMS, "inputResponses." + key + ".roots must be an array").exception();
        }
        StringBuilder uris = new StringBuilder();
        for (JsonNode root : roots) {
            uris.append(uris.isEmpty() ? "" : ", ").append(Json.string(root, "uri"));
        }
        return uris.toString();
    }
}

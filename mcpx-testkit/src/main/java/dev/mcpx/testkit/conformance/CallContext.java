package dev.mcpx.testkit.conformance;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One invocation of a fixture, the same in both eras.
 *
 * @param inputResponses  null when the request carried none; a JSON null node when it carried an explicit null
 * @param requestState    the echoed MRTR state, null when absent
 * @param logThreshold    the least severe level to send, or null to send no log at all
 */
record CallContext(
        String name,
        ObjectNode arguments,
        JsonNode inputResponses,
        String requestState,
        ObjectNode clientCapabilities,
        JsonNode progressToken,
        LogLevel logThreshold,
        Exchange exchange) {

    CallContext withInput(ObjectNode responses, String state) {
        return new CallContext(name, arguments, responses, state, clientCapabilities, progressToken, logThreshold,
                exchange);
    }

    boolean clientCan(String capability) {
        return clientCapabilities.get(capability) != null && !clientCapabilities.get(capability).isNull();
    }

    boolean clientHasExtension(String extension) {
        JsonNode extensions = clientCapabilities.get("extensions");
        return extensions != null && extensions.isObject() && extensions.get(extension) != null;
    }

    String argument(String key) {
        return Json.string(arguments, key);
    }

    void log(LogLevel level, String data) {
        if (logThreshold == null || level.compareTo(logThreshold) < 0) {
            return;
        }
        ObjectNode params = Json.object().put("level", level.wireName()).put("logger", "conformance-upstream")
                .put("data", data);
        exchange.send(Json.notification("notifications/message", params));
    }

    /** Sends progress only when the caller asked for it with a progress token. */
    void progress(int progress, int total, String message) {
        if (progressToken == null) {
            return;
        }
        ObjectNode params = Json.object();
        params.set("progressToken", progressToken);
        params.put("progress", progress).put("total", total).put("message", message);
        exchange.send(Json.notification("notifications/progress", params));
    }
}

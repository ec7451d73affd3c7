package dev.mcpx.cli;

import dev.mcpx.client.ServerRequestHandler;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.Methods;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How the conformance client answers what a server asks of it, legacy requests and modern input
 * requests alike: elicitations with the schema's defaults, no roots, and sampling with a fixed
 * reply that says no model is behind it. These match the capabilities {@link #CAPABILITIES}
 * declares, so no capability is claimed without an answer.
 */
final class ConformanceClientRequests implements ServerRequestHandler {

    static final ObjectNode CAPABILITIES = capabilities();

    private final ServerRequestHandler fallback = ServerRequestHandler.pingOnly();

    @Override
    public JsonNode handle(String method, ObjectNode params) {
        return switch (method) {
            case Methods.ELICITATION_CREATE -> ElicitationDefaults.answer(params);
            case Methods.ROOTS_LIST -> Json.object().set("roots", Json.array());
            case Methods.SAMPLING_CREATE_MESSAGE -> samplingReply();
            default -> fallback.handle(method, params);
        };
    }

    private static ObjectNode samplingReply() {
        ObjectNode reply = Json.object().put("role", "assistant").put("model", "mcpx-conformance-client")
                .put("stopReason", "endTurn");
        reply.putObject("content").put("type", "text").put("text", "mcpx conformance client: no model attached");
        return reply;
    }

    private static ObjectNode capabilities() {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("roots").put("listChanged", false);
        capabilities.putObject("sampling");
        capabilities.putObject("elicitation");
        return capabilities;
    }
}

package dev.mcpx.client;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.Methods;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers what the upstream asks of the client: legacy server->client requests ({@code ping},
 * {@code roots/list}, {@code sampling/createMessage}, {@code elicitation/create}) and the
 * input requests of a modern {@code InputRequiredResult}. Throw {@link McpErrorException} to
 * answer with an error.
 */
@FunctionalInterface
public interface ServerRequestHandler {

    JsonNode handle(String method, ObjectNode params);

    /** Answers {@code ping}; refuses everything else with a JSON-RPC error, never silence. */
    static ServerRequestHandler pingOnly() {
        return (method, params) -> {
            if (Methods.PING.equals(method)) {
                return Json.object();
            }
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND,
                    "client does not handle " + method));
        };
    }
}

package dev.mcpx.router;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.Methods;
import tools.jackson.databind.node.ObjectNode;

/** What a host declared, read and translated for an upstream of the other era. */
final class HostCapabilities {

    private HostCapabilities() {
    }

    /**
     * A legacy host's initialize capabilities in the 2026-07-28 {@code clientCapabilities} shape:
     * {@code roots.listChanged} and the legacy {@code tasks} capability have no modern meaning
     * (tasks moved to an extension); everything else has the same shape in both eras.
     */
    static ObjectNode modernFromLegacy(ObjectNode legacy) {
        ObjectNode modern = legacy == null ? Json.object() : legacy.deepCopy();
        modern.remove("tasks");
        ObjectNode roots = Json.objectAt(modern, "roots");
        if (roots != null) {
            roots.remove("listChanged");
        }
        return modern;
    }

    /**
     * Refuses a server->client request the host cannot answer: a method it did not declare, or
     * an elicitation mode it did not declare (an empty {@code elicitation} means form only).
     */
    static void require(ObjectNode declared, String method, ObjectNode params) {
        String capability = switch (method) {
            case Methods.SAMPLING_CREATE_MESSAGE -> "sampling";
            case Methods.ELICITATION_CREATE -> "elicitation";
            case Methods.ROOTS_LIST -> "roots";
            default -> throw new McpErrorException(JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method));
        };
        ObjectNode granted = Json.objectAt(declared, capability);
        if (granted == null) {
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND, "the host did not declare the "
                    + capability + " capability, so mcpx cannot pass " + method + " to it"));
        }
        if (Methods.ELICITATION_CREATE.equals(method)) {
            String mode = Json.text(params, "mode") == null ? "form" : Json.text(params, "mode");
            boolean formOnly = !granted.has("form") && !granted.has("url");
            if (!(granted.has(mode) || formOnly && "form".equals(mode))) {
                throw new McpErrorException(JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND,
                        "the host did not declare elicitation in " + mode + " mode"));
            }
        }
    }
}

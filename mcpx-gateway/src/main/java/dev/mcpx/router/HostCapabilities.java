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
     * What the host would need to answer a server->client request and did not declare, as a
     * {@code requiredCapabilities} object, or null when it can answer: the method's capability,
     * or for elicitation the mode (an empty {@code elicitation} means form only).
     *
     * @throws McpErrorException -32601 for a method that is no server->client request
     */
    static ObjectNode missing(ObjectNode declared, String method, ObjectNode params) {
        String capability = switch (method) {
            case Methods.SAMPLING_CREATE_MESSAGE -> "sampling";
            case Methods.ELICITATION_CREATE -> "elicitation";
            case Methods.ROOTS_LIST -> "roots";
            default -> throw new McpErrorException(JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method));
        };
        ObjectNode granted = Json.objectAt(declared, capability);
        ObjectNode required = Json.object();
        if (granted == null) {
            required.putObject(capability);
            return required;
        }
        if (Methods.ELICITATION_CREATE.equals(method)) {
            String mode = Json.text(params, "mode") == null ? "form" : Json.text(params, "mode");
            boolean formOnly = !granted.has("form") && !granted.has("url");
            if (!(granted.has(mode) || formOnly && "form".equals(mode))) {
                required.putObject(capability).putObject(mode);
                return required;
            }
        }
        return null;
    }

    /** The 2026-07-28 answer to a request that needs what the host did not declare. */
    static McpErrorException missingError(ObjectNode required) {
        ObjectNode data = Json.object();
        data.set("requiredCapabilities", required);
        return new McpErrorException(new JsonRpcError(ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
                "Missing required client capability: " + String.join(", ", required.propertyNames()), data));
    }
}

package dev.mcpx.client;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.TasksExtension;
import java.util.HashSet;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code resultType} values a modern result may carry (2026-07-28 basic/index.md): the core
 * ones, those of the extensions the request declared, and those the embedding code handles
 * itself. Any other value makes the result invalid; an absent one means complete.
 */
record ResultTypes(Set<String> handled) {

    static final String COMPLETE = "complete";
    static final String INPUT_REQUIRED = "input_required";

    ResultTypes {
        handled = Set.copyOf(handled);
    }

    /**
     * {@code result} unchanged when its type is recognised.
     *
     * @throws McpErrorException -32603 naming the value, when it is not
     */
    JsonNode requireRecognized(String method, JsonNode result, ObjectNode declaredCapabilities) {
        JsonNode type = result == null ? null : result.get("resultType");
        if (type == null || type.isNull()) {
            return result;
        }
        Set<String> recognized = recognized(declaredCapabilities);
        if (type.isString() && recognized.contains(type.asString())) {
            return result;
        }
        ObjectNode data = Json.object();
        data.set("resultType", type);
        throw new McpErrorException(new JsonRpcError(ErrorCodes.INTERNAL_ERROR, "the server answered " + method
                + " with resultType " + type + ", which is neither a core value nor one of a declared extension "
                + recognized.stream().sorted().toList(), data));
    }

    private Set<String> recognized(ObjectNode declaredCapabilities) {
        Set<String> recognized = new HashSet<>(handled);
        recognized.add(COMPLETE);
        recognized.add(INPUT_REQUIRED);
        if (TasksExtension.declaredIn(declaredCapabilities)) {
            recognized.add(TasksExtension.RESULT_TYPE);
        }
        return recognized;
    }
}

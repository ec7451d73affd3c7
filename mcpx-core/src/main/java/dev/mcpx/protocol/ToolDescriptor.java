package dev.mcpx.protocol;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The parts of a {@code tools/list} entry mcpx acts on, beside the untouched original. The hints
 * are null when the server said nothing: absent is not false.
 */
public record ToolDescriptor(String name, Boolean readOnlyHint, Boolean idempotentHint,
                             Boolean destructiveHint, ObjectNode inputSchema, ObjectNode raw) {

    /** Reads one entry; null when it has no string {@code name}. */
    public static ToolDescriptor from(JsonNode tool) {
        if (!(tool instanceof ObjectNode object) || !object.path("name").isString()) {
            return null;
        }
        JsonNode annotations = object.path("annotations");
        return new ToolDescriptor(object.get("name").asString(),
                hint(annotations, "readOnlyHint"), hint(annotations, "idempotentHint"),
                hint(annotations, "destructiveHint"), Json.objectAt(object, "inputSchema"), object);
    }

    private static Boolean hint(JsonNode annotations, String field) {
        JsonNode value = annotations.path(field);
        return value.isBoolean() ? value.asBoolean() : null;
    }

    /** Annotations say a repeat is harmless: read-only or idempotent. */
    public boolean safeToRepeat() {
        return Boolean.TRUE.equals(readOnlyHint) || Boolean.TRUE.equals(idempotentHint);
    }
}

package dev.mcpx.cli;

import dev.mcpx.protocol.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Arguments for a tool nobody gave arguments for: each required property gets its schema
 * {@code default}, {@code const} or first {@code enum} value, else a plain value of its type.
 * Optional properties are left out, as a user who only fills what is asked would.
 */
final class ExampleArguments {

    private ExampleArguments() {
    }

    static ObjectNode forSchema(ObjectNode inputSchema) {
        ObjectNode arguments = Json.object();
        if (inputSchema == null) {
            return arguments;
        }
        ObjectNode properties = Json.objectAt(inputSchema, "properties");
        for (JsonNode required : inputSchema.path("required")) {
            if (required.isString()) {
                JsonNode schema = properties == null ? null : properties.get(required.asString());
                arguments.set(required.asString(), valueFor(schema));
            }
        }
        return arguments;
    }

    private static JsonNode valueFor(JsonNode schema) {
        if (schema == null || !schema.isObject()) {
            return Json.mapper().getNodeFactory().stringNode("example");
        }
        for (String given : new String[] {"default", "const"}) {
            if (schema.has(given)) {
                return schema.get(given).deepCopy();
            }
        }
        if (schema.path("enum").isArray() && !schema.path("enum").isEmpty()) {
            return schema.path("enum").get(0).deepCopy();
        }
        var nodes = Json.mapper().getNodeFactory();
        return switch (schema.path("type").asString("string")) {
            case "integer" -> nodes.numberNode(1);
            case "number" -> nodes.numberNode(1.5);
            case "boolean" -> nodes.booleanNode(true);
            case "object" -> forSchema((ObjectNode) schema);
            case "array" -> Json.array();
            case "null" -> nodes.nullNode();
            default -> nodes.stringNode("example");
        };
    }
}

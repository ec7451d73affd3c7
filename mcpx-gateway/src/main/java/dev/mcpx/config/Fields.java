package dev.mcpx.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Typed reads of one config object's fields; a wrong type is a {@link ConfigException}. */
final class Fields {

    private final Path file;
    private final String entry;
    private final String path;

    /** {@code path} is put in front of field names in messages ("mcpx." for the options). */
    Fields(Path file, String entry, String path) {
        this.file = file;
        this.entry = entry;
        this.path = path;
    }

    ConfigException problem(String text) {
        return new ConfigException(file, entry, text);
    }

    /** The string at {@code name}, or null when absent. */
    String string(ObjectNode object, String name) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw wrongType(name, "a string", value);
        }
        return value.asString();
    }

    Boolean bool(ObjectNode object, String name) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isBoolean()) {
            throw wrongType(name, "true or false", value);
        }
        return value.asBoolean();
    }

    /** A positive whole number of milliseconds, or null when absent. */
    Long millis(ObjectNode object, String name) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() <= 0) {
            throw wrongType(name, "a positive whole number of milliseconds", value);
        }
        return value.asLong();
    }

    List<String> strings(ObjectNode object, String name) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw wrongType(name, "an array of strings", value);
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            JsonNode item = value.get(i);
            if (!item.isString()) {
                throw wrongType(name + "[" + i + "]", "a string", item);
            }
            out.add(item.asString());
        }
        return out;
    }

    /** An object whose values are all strings, in file order. */
    Map<String, String> stringMap(ObjectNode object, String name) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            return Map.of();
        }
        if (!(value instanceof ObjectNode map)) {
            throw wrongType(name, "an object of strings", value);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> item : map.properties()) {
            if (!item.getValue().isString()) {
                throw wrongType(name + "." + item.getKey(), "a string", item.getValue());
            }
            out.put(item.getKey(), item.getValue().asString());
        }
        return out;
    }

    private ConfigException wrongType(String name, String expected, JsonNode actual) {
        return problem("\"" + path + name + "\" must be " + expected + ", not " + kind(actual));
    }

    /** A JSON value's kind and, when short, the value itself. */
    static String kind(JsonNode node) {
        String kind = switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
        };
        return node.isValueNode() && !node.isNull() ? kind + " (" + node + ")" : kind;
    }
}

package dev.mcpx.protocol;

import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The one JSON mapper mcpx uses, and small tree builders. */
public final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder(new Latin1CopyJsonFactory()).build();
    /** Trees keep their long strings as the bytes they arrived in, for mcpx forwards most of them unread. */
    private static final ObjectReader TREES = MAPPER.reader()
            .withAttribute(Latin1CopyJsonFactory.KEEPS_LONG_STRINGS, Boolean.TRUE);

    private Json() {
    }

    public static JsonMapper mapper() {
        return MAPPER;
    }

    public static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    public static ArrayNode array() {
        return JsonNodeFactory.instance.arrayNode();
    }

    /**
     * Parses JSON text into a tree; throws {@link JacksonException} when it is not JSON. Through
     * its UTF-8: Jackson's byte parser is faster than its char parser (a quarter less time for a
     * 32 KB message at C1), more than the copy costs. A lone surrogate, which no JSON text may
     * hold and Jackson's writer would refuse later, becomes '?'.
     */
    public static JsonNode parse(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return TREES.readTree(utf8, 0, utf8.length);
    }

    /** Parses UTF-8 JSON without a String in between; throws {@link JacksonException} when it is not JSON. */
    public static JsonNode parse(byte[] utf8, int offset, int length) {
        return TREES.readTree(utf8, offset, length);
    }

    public static String write(JsonNode node) {
        return MAPPER.writeValueAsString(node);
    }

    /** The UTF-8 of {@link #write}, without a String in between. */
    public static byte[] writeBytes(JsonNode node) {
        return MAPPER.writeValueAsBytes(node);
    }

    /** The string at {@code field}, or null when absent or not a string. */
    public static String text(JsonNode node, String field) {
        if (node == null) {
            return null;
        }
        JsonNode value = node.get(field);
        return value != null && value.isString() ? value.asString() : null;
    }

    /** The object at {@code field}, or null when absent or not an object. */
    public static ObjectNode objectAt(JsonNode node, String field) {
        if (node == null) {
            return null;
        }
        JsonNode value = node.get(field);
        return value instanceof ObjectNode object ? object : null;
    }
}

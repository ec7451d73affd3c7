package dev.mcpx.testkit.conformance;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** JSON-RPC message building for the fixture server, on plain Jackson trees. */
final class Json {

    static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Json() {
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static ArrayNode array() {
        return NODES.arrayNode();
    }

    static JsonNode parse(String text) {
        return MAPPER.readTree(text);
    }

    static String write(JsonNode node) {
        return MAPPER.writeValueAsString(node);
    }

    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode message = object().put("jsonrpc", "2.0");
        message.set("id", id == null ? NODES.nullNode() : id);
        message.set("result", result);
        return message;
    }

    static ObjectNode error(JsonNode id, RpcError error) {
        ObjectNode message = object().put("jsonrpc", "2.0");
        message.set("id", id == null ? NODES.nullNode() : id);
        ObjectNode body = message.putObject("error").put("code", error.code()).put("message", error.message());
        if (error.data() != null) {
            body.set("data", error.data());
        }
        return message;
    }

    static ObjectNode notification(String method, ObjectNode params) {
        ObjectNode message = object().put("jsonrpc", "2.0").put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    static ObjectNode request(String id, String method, JsonNode params) {
        ObjectNode message = object().put("jsonrpc", "2.0").put("id", id).put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    static ObjectNode text(String text) {
        return object().put("type", "text").put("text", text);
    }

    /** A tool result with a single text block. */
    static ObjectNode textResult(String text) {
        ObjectNode result = object();
        result.putArray("content").add(text(text));
        return result;
    }

    /** {@code node.get(name)} as a string, or null when absent or not a string. */
    static String string(JsonNode node, String name) {
        JsonNode value = node == null ? null : node.get(name);
        return value != null && value.isString() ? value.asString() : null;
    }

    static ObjectNode objectOrEmpty(JsonNode node) {
        return node != null && node.isObject() ? (ObjectNode) node : object();
    }
}

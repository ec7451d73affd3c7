package dev.mcpx.protocol;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A JSON-RPC request id: a string or an integral number. {@code "1"} and {@code 1} are
 * different ids and stay different through a decode/encode round trip. Ids key the maps every
 * call passes through, so equality is written out: a record's own runs through method handles,
 * which C1 does not inline.
 */
public sealed interface RequestId {

    JsonNode toJson();

    record Text(String value) implements RequestId {
        public Text {
            if (value == null) {
                throw new IllegalArgumentException("id must not be null");
            }
        }

        @Override
        public JsonNode toJson() {
            return JsonNodeFactory.instance.stringNode(value);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Text text && value.equals(text.value);
        }

        @Override
        public int hashCode() {
            return value.hashCode();
        }

        @Override
        public String toString() {
            return '"' + value + '"';
        }
    }

    record Number(long value) implements RequestId {
        @Override
        public JsonNode toJson() {
            return JsonNodeFactory.instance.numberNode(value);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Number number && value == number.value;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(value);
        }

        @Override
        public String toString() {
            return Long.toString(value);
        }
    }

    static RequestId of(long value) {
        return new Number(value);
    }

    static RequestId of(String value) {
        return new Text(value);
    }

    /** Reads an id node; {@code null} when the node is not a string or an integral number. */
    static RequestId fromJson(JsonNode node) {
        if (node == null) {
            return null;
        }
        if (node.isString()) {
            return new Text(node.asString());
        }
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return new Number(node.asLong());
        }
        return null;
    }
}

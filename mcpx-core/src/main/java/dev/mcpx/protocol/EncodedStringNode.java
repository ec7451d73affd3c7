package dev.mcpx.protocol;

import java.util.Optional;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.node.JsonNodeType;
import tools.jackson.databind.node.StringNode;
import tools.jackson.databind.node.ValueNode;

/**
 * A long string of a parsed message, kept as the JSON it arrived in (quotes, escapes and UTF-8
 * included) and decoded only when read. mcpx forwards most long strings (a file's text, an image's
 * base64) without reading them, so it writes them back as those bytes instead of decoding and
 * re-encoding them at every hop. Only the parser makes these, from bytes it checked to be a JSON
 * string that Jackson reads without error.
 */
final class EncodedStringNode extends ValueNode {

    private final byte[] quoted;
    /** Decoded at the first read; a race decodes twice to equal Strings. */
    private String value;

    EncodedStringNode(byte[] quoted) {
        this.quoted = quoted;
    }

    /** The string as it arrived, its quotes included. */
    byte[] quoted() {
        return quoted;
    }

    private String value() {
        String text = value;
        if (text == null) {
            try (JsonParser parser = Json.mapper().createParser(quoted)) {
                parser.nextToken();
                text = parser.getString();
            }
            value = text;
        }
        return text;
    }

    @Override
    public JsonNodeType getNodeType() {
        return JsonNodeType.STRING;
    }

    @Override
    public JsonToken asToken() {
        return JsonToken.VALUE_STRING;
    }

    @Override
    protected String _valueDesc() {
        String text = value();
        return '"' + (text.length() > 100 ? text.substring(0, 100) + "\"[...]" : text + '"');
    }

    @Override
    public String stringValue() {
        return value();
    }

    @Override
    public String stringValue(String defaultValue) {
        return value();
    }

    @Override
    public Optional<String> stringValueOpt() {
        return Optional.of(value());
    }

    @Override
    protected String _asString() {
        return value();
    }

    @Override
    public String asString() {
        return value();
    }

    @Override
    public String asString(String defaultValue) {
        return value();
    }

    @Override
    public Optional<String> asStringOpt() {
        return Optional.of(value());
    }

    /** Base64 content as bytes, as Jackson's own string node reads it. */
    @Override
    public byte[] binaryValue() {
        return StringNode.valueOf(value()).binaryValue();
    }

    @Override
    public void serialize(JsonGenerator generator, SerializationContext context) {
        if (!Latin1CopyJsonFactory.wroteEncoded(generator, quoted)) {
            generator.writeString(value());
        }
    }

    /** Equal to any string node of the same value; Jackson's own string node sees only its own kind as equal. */
    @Override
    public boolean equals(Object other) {
        if (other == this) {
            return true;
        }
        return other instanceof JsonNode node && node.isString() && value().equals(node.asString());
    }

    @Override
    public int hashCode() {
        return value().hashCode();
    }
}

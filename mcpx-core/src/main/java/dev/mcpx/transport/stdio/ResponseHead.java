package dev.mcpx.transport.stdio;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.RequestId;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * The id of a response from the first bytes of a line too long to read whole: a server writes
 * {@code {"jsonrpc":"2.0","id":7,"result":...}}, so the id usually comes before the cut, and the
 * caller can be told its answer was too large instead of waiting for its timeout.
 */
final class ResponseHead {

    private ResponseHead() {
    }

    /** The top-level id of a line that is a response ({@code result} or {@code error} seen); null when unknown. */
    static RequestId responseId(String head) {
        RequestId id = null;
        boolean response = false;
        boolean request = false;
        try (JsonParser parser = Json.mapper().createParser(head)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "id" -> id = value == JsonToken.VALUE_STRING ? RequestId.of(parser.getString())
                            : value == JsonToken.VALUE_NUMBER_INT ? RequestId.of(parser.getLongValue()) : null;
                    case "result", "error" -> response = true;
                    case "method" -> request = true;
                    default -> {
                        // other members say nothing about whose answer this is
                    }
                }
                if (response && id != null) {
                    break;
                }
                parser.skipChildren();
            }
        } catch (JacksonException e) {
            // the cut fell here: whatever was seen before it stands
        }
        return response && !request ? id : null;
    }
}

package dev.mcpx.transport.stdio;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.RequestId;
import java.io.InputStream;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Whose answer a line too long to read whole is: a streaming scan of its top-level members
 * that skips every value but {@code id} without keeping it, so the id is found wherever it
 * stands (the TypeScript SDK writes {@code {"result":...,"jsonrpc":"2.0","id":7}}, id last).
 */
record ResponseHead(RequestId id, boolean response, boolean request) {

    /** A line that names no answer: nothing could be read from it. */
    static final ResponseHead UNKNOWN = new ResponseHead(null, false, false);

    /** The answer's id when the line is a response ({@code result} or {@code error}, no {@code method}); else null. */
    RequestId responseId() {
        return response && !request ? id : null;
    }

    /** Scans {@code line} (the whole line, read to its end or to where it stops being JSON). */
    static ResponseHead scan(InputStream line) {
        RequestId id = null;
        boolean response = false;
        boolean request = false;
        try (JsonParser parser = Json.mapper().createParser(line)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return UNKNOWN;
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
                // a string is skipped unread and a subtree token by token: nothing of it is kept
                parser.skipChildren();
            }
        } catch (JacksonException e) {
            // the line stops being JSON here: whatever was seen before stands
        }
        return new ResponseHead(id, response, request);
    }
}

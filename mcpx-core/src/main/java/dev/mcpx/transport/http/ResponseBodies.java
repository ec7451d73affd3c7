package dev.mcpx.transport.http;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.MalformedMessageException;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** Reading what an MCP server put in an HTTP response body: SSE or one JSON object, or an error. */
final class ResponseBodies {

    /** Error bodies are only read for messages and classification: a few KiB are plenty. */
    static final int ERROR_BODY_LIMIT = 16 * 1024;

    private static final JsonRpcCodec CODEC = new JsonRpcCodec();

    private ResponseBodies() {
    }

    static boolean isEventStream(HttpResponse<?> response) {
        return isEventStream(response.headers().firstValue("Content-Type").orElse(null));
    }

    static boolean isEventStream(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
    }

    /** Up to {@link #ERROR_BODY_LIMIT} bytes of an error body; whatever could be read. */
    static String readErrorBody(InputStream in) {
        try (in) {
            byte[] bytes = in.readNBytes(ERROR_BODY_LIMIT);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Drops an acknowledgement's body unread: a 202 carries nothing, and reading a body that
     * stalls would hold its connection and the sender's thread (closing an unfinished body drops
     * the connection; a finished one goes back to the pool).
     */
    static void discard(InputStream in) {
        close(in);
    }

    /** Closes a body another thread may be blocked reading: the JDK then ends the exchange and drops its connection. */
    static void close(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // the body is abandoned either way
        }
    }

    /** The JSON-RPC error response an error body carries, or null when it carries none. */
    static JsonRpcMessage.ErrorResponse errorResponse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return CODEC.decode(body) instanceof JsonRpcMessage.ErrorResponse error ? error : null;
        } catch (MalformedMessageException e) {
            return null;
        }
    }

    /**
     * Whether an error body says the session is unknown, invalid or missing: the JSON-RPC error's
     * message, or a plain-text body, names the session (the official reference server answers a
     * stale session with 400 {@code Bad Request: No valid session ID provided}).
     */
    static boolean rejectsSession(String body) {
        if (body == null || body.isBlank()) {
            return false;
        }
        JsonRpcMessage.ErrorResponse error = errorResponse(body);
        String text = error != null ? error.error().message() : plainText(body);
        return text != null && text.toLowerCase(Locale.ROOT).contains("session");
    }

    private static String plainText(String body) {
        try {
            JsonNode tree = Json.parse(body);
            return tree.isString() ? tree.asString() : null;
        } catch (JacksonException e) {
            return body.length() <= 500 ? body : null;
        }
    }
}

package dev.mcpx.testkit.conformance;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import tools.jackson.databind.JsonNode;

/**
 * The HTTP response to one JSON-RPC request. It stays a plain JSON body (with the status the
 * error calls for) unless something has to be sent before the final message; then it turns
 * into an SSE stream, resumable in the legacy era.
 */
final class Exchange {

    private final Response response;
    private final LegacySession session;
    private SseWriter modernStream;
    private ResumableStream legacyStream;
    private boolean done;

    private Exchange(Response response, LegacySession session) {
        this.response = response;
        this.session = session;
    }

    static Exchange legacy(Response response, LegacySession session) {
        return new Exchange(response, session);
    }

    static Exchange modern(Response response) {
        return new Exchange(response, null);
    }

    boolean isLegacy() {
        return session != null;
    }

    LegacySession session() {
        return session;
    }

    /** A notification or (legacy only) a server-to-client request, ahead of the final message. */
    void send(JsonNode message) {
        try {
            startStream();
        } catch (IOException clientLeft) {
            return;
        }
        if (legacyStream != null) {
            legacyStream.send(message);
        } else {
            try {
                modernStream.event(null, null, Json.write(message));
            } catch (IOException clientLeft) {
                // the client closed the stream: for a modern request that is cancellation
            }
        }
    }

    /** Legacy SEP-1699: closes the response mid-call; the rest waits for a GET with Last-Event-ID. */
    void disconnectForResumption() {
        try {
            startStream();
        } catch (IOException clientLeft) {
            return;
        }
        if (legacyStream != null) {
            legacyStream.disconnect();
        }
    }

    void finish(JsonNode message, int jsonStatus) {
        if (done) {
            return;
        }
        done = true;
        if (legacyStream != null) {
            legacyStream.send(message);
            legacyStream.finish();
        } else if (modernStream != null) {
            try {
                modernStream.event(null, null, Json.write(message));
            } catch (IOException clientLeft) {
                // nothing to tell a client that left
            }
            modernStream.close();
        } else {
            writeJson(response, jsonStatus, message);
        }
    }

    static void writeJson(Response response, int status, JsonNode message) {
        response.setStatus(status);
        response.getHeaders().put("Content-Type", "application/json");
        try (OutputStream out = Content.Sink.asOutputStream(response)) {
            out.write(Json.write(message).getBytes(StandardCharsets.UTF_8));
        } catch (IOException clientLeft) {
            throw new UncheckedIOException(clientLeft);
        }
    }

    /** A response without a body, e.g. 202 Accepted for a notification. */
    static void writeEmpty(Response response, int status) {
        response.setStatus(status);
        try {
            Content.Sink.asOutputStream(response).close();
        } catch (IOException clientLeft) {
            throw new UncheckedIOException(clientLeft);
        }
    }

    private void startStream() throws IOException {
        if (legacyStream != null || modernStream != null) {
            return;
        }
        SseWriter writer = new SseWriter(response);
        if (session != null) {
            legacyStream = session.openStream(writer);
        } else {
            modernStream = writer;
        }
    }
}

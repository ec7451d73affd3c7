package dev.mcpx.testkit.legacy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;

/** Writes Server-Sent Events to a Jetty response, blocking until each event is flushed. */
final class SseResponse {

    private final Response response;

    private SseResponse(Response response) {
        this.response = response;
    }

    static SseResponse open(Response response, String sessionId) {
        response.setStatus(200);
        response.getHeaders().put("Content-Type", "text/event-stream");
        response.getHeaders().put("Cache-Control", "no-cache");
        if (sessionId != null) {
            response.getHeaders().put("Mcp-Session-Id", sessionId);
        }
        return new SseResponse(response);
    }

    void write(EventLog.Event event, long retryMillis) throws IOException {
        StringBuilder frame = new StringBuilder();
        frame.append("id: ").append(event.id()).append('\n');
        if (retryMillis >= 0) {
            frame.append("retry: ").append(retryMillis).append('\n');
        }
        for (String line : event.data().split("\n", -1)) {
            frame.append("data: ").append(line).append('\n');
        }
        frame.append('\n');
        write(frame.toString(), false);
    }

    /** An event with a type and no id, as the 2024-11-05 {@code endpoint} event is sent. */
    void writeTyped(String type, String data) throws IOException {
        write("event: " + type + "\ndata: " + data + "\n\n", false);
    }

    void write(String text, boolean last) throws IOException {
        Content.Sink.write(response, last, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    void end() throws IOException {
        Content.Sink.write(response, true, ByteBuffer.allocate(0));
    }
}

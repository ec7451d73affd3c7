package dev.mcpx.testkit.conformance;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;

/** Server-Sent Events on one HTTP response, flushed event by event. */
final class SseWriter implements AutoCloseable {

    private final OutputStream out;

    SseWriter(Response response) {
        response.setStatus(200);
        response.getHeaders().put("Content-Type", "text/event-stream");
        response.getHeaders().put("Cache-Control", "no-cache, no-transform");
        // Tells proxies not to buffer the stream (the transport spec asks for it).
        response.getHeaders().put("X-Accel-Buffering", "no");
        this.out = Content.Sink.asOutputStream(response);
    }

    /** Writes one event; id and retry may be null. Data may be empty (a priming event). */
    synchronized void event(String id, Integer retryMs, String data) throws IOException {
        StringBuilder event = new StringBuilder();
        if (id != null) {
            event.append("id: ").append(id).append('\n');
        }
        if (retryMs != null) {
            event.append("retry: ").append(retryMs).append('\n');
        }
        event.append("data: ").append(data).append("\n\n");
        out.write(event.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** A comment line: ignored by clients, used as keep-alive and to notice a client that left. */
    synchronized void comment() throws IOException {
        out.write(":\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException ignored) {
            // the client already went away; nothing left to finish
        }
    }
}

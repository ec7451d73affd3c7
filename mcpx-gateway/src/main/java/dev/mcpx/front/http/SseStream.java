package dev.mcpx.front.http;

import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcMessage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;

/**
 * One SSE response to a host, written from several threads (progress, keep-alives, the final
 * answer). A comment line goes out every {@code keepAlive} so a host that went away is noticed
 * by a failed write even while the upstream is silent; {@code onBroken} then runs once.
 */
final class SseStream {

    private static final JsonRpcCodec CODEC = new JsonRpcCodec();

    private final Response response;
    private final Runnable onBroken;
    private boolean broken;
    private boolean finished;

    private SseStream(Response response, Runnable onBroken) {
        this.response = response;
        this.onBroken = onBroken;
    }

    /** Sets the SSE headers (plus {@code extraHeaders} name/value pairs) and starts the keep-alives. */
    static SseStream open(Response response, Duration keepAlive, Runnable onBroken, String... extraHeaders) {
        response.setStatus(200);
        response.getHeaders().put("Content-Type", "text/event-stream");
        response.getHeaders().put("Cache-Control", "no-cache");
        response.getHeaders().put("X-Accel-Buffering", "no");
        for (int i = 0; i + 1 < extraHeaders.length; i += 2) {
            response.getHeaders().put(extraHeaders[i], extraHeaders[i + 1]);
        }
        SseStream stream = new SseStream(response, onBroken);
        stream.write(": stream open\n\n", false);
        Thread.ofVirtual().name("mcpx-sse-keepalive").start(() -> stream.keepAlive(keepAlive));
        return stream;
    }

    private void keepAlive(Duration interval) {
        while (isOpen()) {
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
            write(":\n\n", false);
        }
    }

    /** Sends one message as an SSE event; false when the host is gone. */
    boolean send(JsonRpcMessage message) {
        return write("event: message\ndata: " + CODEC.encode(message) + "\n\n", false);
    }

    /** Ends the response: nothing more is written. */
    void finish() {
        write("", true);
    }

    synchronized boolean isOpen() {
        return !broken && !finished;
    }

    synchronized boolean isBroken() {
        return broken;
    }

    /** Blocks the handler until the stream is finished or the host went away. */
    synchronized void awaitEnd() throws InterruptedException {
        while (!broken && !finished) {
            wait();
        }
    }

    private boolean write(String text, boolean last) {
        boolean notify;
        synchronized (this) {
            if (broken || finished) {
                return false;
            }
            try {
                Content.Sink.write(response, last, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
                finished = last;
                if (last) {
                    notifyAll();
                }
                return true;
            } catch (IOException | RuntimeException e) {
                broken = true;
                notify = true;
                notifyAll();
            }
        }
        if (notify) {
            onBroken.run();
        }
        return false;
    }
}

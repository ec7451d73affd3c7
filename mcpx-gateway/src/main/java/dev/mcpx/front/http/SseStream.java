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
 * One response to a host that may stream, written from several threads (progress, keep-alives,
 * the final answer). Once streaming, a comment line goes out every {@code keepAlive} so a host
 * that went away is noticed by a failed write even while the upstream is silent; {@code onBroken}
 * then runs once.
 */
final class SseStream {

    private static final JsonRpcCodec CODEC = new JsonRpcCodec();

    private final Response response;
    private final Runnable onBroken;
    private final String[] extraHeaders;
    private boolean committed;
    private boolean broken;
    private boolean finished;

    private SseStream(Response response, Runnable onBroken, String[] extraHeaders) {
        this.response = response;
        this.onBroken = onBroken;
        this.extraHeaders = extraHeaders.clone();
    }

    /** An SSE response that starts now: headers (plus {@code extraHeaders} pairs) go out at once. */
    static SseStream open(Response response, Duration keepAlive, Runnable onBroken, String... extraHeaders) {
        SseStream stream = deferred(response, keepAlive, onBroken, extraHeaders);
        stream.write(": stream open\n\n", false);
        return stream;
    }

    /**
     * A response that becomes SSE only when something must be sent before the answer (progress,
     * or a keep-alive after {@code keepAlive}); an answer that comes first goes out as plain JSON
     * with its own HTTP status ({@link #answer}).
     */
    static SseStream deferred(Response response, Duration keepAlive, Runnable onBroken, String... extraHeaders) {
        SseStream stream = new SseStream(response, onBroken, extraHeaders);
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

    /**
     * The one answer: plain JSON with {@code status} when the stream has not started, else the
     * last event. The response is finished either way.
     */
    void answer(JsonRpcMessage message, int status) {
        synchronized (this) {
            if (!committed && !broken && !finished) {
                committed = true;
                finished = true;
                response.setStatus(status);
                response.getHeaders().put("Content-Type", "application/json");
                headers();
                try {
                    Content.Sink.write(response, true, ByteBuffer.wrap(CODEC.encode(message).getBytes(StandardCharsets.UTF_8)));
                } catch (IOException | RuntimeException e) {
                    broken = true;
                }
                notifyAll();
                return;
            }
        }
        send(message);
        finish();
    }

    private void headers() {
        for (int i = 0; i + 1 < extraHeaders.length; i += 2) {
            response.getHeaders().put(extraHeaders[i], extraHeaders[i + 1]);
        }
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
                if (!committed) {
                    committed = true;
                    response.setStatus(200);
                    response.getHeaders().put("Content-Type", "text/event-stream");
                    response.getHeaders().put("Cache-Control", "no-cache");
                    response.getHeaders().put("X-Accel-Buffering", "no");
                    headers();
                }
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

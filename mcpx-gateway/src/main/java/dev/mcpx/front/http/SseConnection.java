package dev.mcpx.front.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;

/**
 * One HTTP response that carries an SSE stream, or a plain JSON answer if that comes before
 * anything had to be streamed. Written from several threads (events, keep-alives, the answer).
 * Once streaming, a comment goes out every {@code keepAlive} so a host that went away is noticed
 * by a failed write even while the upstream is silent; {@code onBroken} then runs once.
 *
 * <p>Writes block while a slow host reads, so they hold a {@link ReentrantLock}, never a
 * monitor: a virtual thread that blocks inside {@code synchronized} pins its carrier on JDK 21-23.
 */
final class SseConnection {

    /**
     * One clock for every response's keep-alives: most calls answer long before their first
     * keep-alive, so a sleeping thread per response was pure cost; a due keep-alive is written on
     * a virtual thread of its own, since a write to a slow host blocks.
     */
    private static final KeepAliveClock KEEP_ALIVES = new KeepAliveClock("mcpx-sse-keepalive");

    private final Response response;
    private final Consumer<SseConnection> onBroken;
    private final Supplier<String> prologue;
    private final String[] extraHeaders;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ended = lock.newCondition();
    private boolean committed;
    private boolean broken;
    private boolean finished;
    /** The next keep-alive, cancelled when the response ends. Guarded by {@link #lock}. */
    private KeepAliveClock.Due keepAlive;

    /**
     * @param prologue gives what is written first when the response turns into SSE (a priming event, a
     *                 {@code retry:}), or null
     */
    private SseConnection(Response response, Consumer<SseConnection> onBroken, Supplier<String> prologue,
                          String[] extraHeaders) {
        this.response = response;
        this.onBroken = onBroken;
        this.prologue = prologue;
        this.extraHeaders = extraHeaders.clone();
    }

    /** Starts SSE now: headers and the prologue (or an opening comment) go out at once. */
    static SseConnection open(Response response, Duration keepAlive, Consumer<SseConnection> onBroken, String prologue,
                              String... extraHeaders) {
        SseConnection connection = new SseConnection(response, onBroken, prologue == null ? null : () -> prologue,
                extraHeaders);
        connection.write(prologue == null ? ": stream open\n\n" : "", false);
        connection.startKeepAlive(keepAlive, keepAlive);
        return connection;
    }

    /**
     * Becomes SSE only when something is written or, failing that, after {@code firstKeepAlive};
     * an answer that comes first can go out as plain JSON ({@link #json}). {@code prologue} (may
     * be null) is asked only then, so what it costs is paid by streamed answers only.
     */
    static SseConnection deferred(Response response, Duration firstKeepAlive, Duration keepAlive,
                                  Consumer<SseConnection> onBroken, Supplier<String> prologue, String... extraHeaders) {
        SseConnection connection = new SseConnection(response, onBroken, prologue, extraHeaders);
        connection.startKeepAlive(firstKeepAlive, keepAlive);
        return connection;
    }

    private void startKeepAlive(Duration first, Duration interval) {
        lock.lock();
        try {
            if (broken || finished) {
                return;
            }
            keepAlive = KEEP_ALIVES.schedule(first, () -> {
                if (write(":\n\n", false)) {
                    startKeepAlive(interval, interval);
                }
            });
        } finally {
            lock.unlock();
        }
    }

    /** The response is over: its pending keep-alive is cancelled. Called with {@link #lock} held. */
    private void stopKeepAlive() {
        if (keepAlive != null) {
            keepAlive.cancel();
            keepAlive = null;
        }
    }

    /**
     * The whole answer as plain JSON with {@code status}, if nothing was streamed yet; the
     * response is then finished. False when the response is already SSE (or over).
     */
    boolean json(byte[] body, int status) {
        lock.lock();
        try {
            if (committed || broken || finished) {
                return false;
            }
            committed = true;
            finished = true;
            stopKeepAlive();
            response.setStatus(status);
            response.getHeaders().put("Content-Type", "application/json");
            headers();
            try {
                Content.Sink.write(response, true, ByteBuffer.wrap(body));
            } catch (IOException | RuntimeException e) {
                broken = true;
            }
            ended.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void headers() {
        for (int i = 0; i + 1 < extraHeaders.length; i += 2) {
            response.getHeaders().put(extraHeaders[i], extraHeaders[i + 1]);
        }
    }

    /** Whether anything went out yet: once it has, the answer cannot be plain JSON. */
    boolean isCommitted() {
        lock.lock();
        try {
            return committed || broken || finished;
        } finally {
            lock.unlock();
        }
    }

    /** Ends the response; true when it ended cleanly (everything written reached the socket). */
    boolean finish() {
        return write("", true);
    }

    boolean isOpen() {
        lock.lock();
        try {
            return !broken && !finished;
        } finally {
            lock.unlock();
        }
    }

    boolean isBroken() {
        lock.lock();
        try {
            return broken;
        } finally {
            lock.unlock();
        }
    }

    /** Blocks the handler until the response is finished or the host went away. */
    void awaitEnd() throws InterruptedException {
        lock.lock();
        try {
            while (!broken && !finished) {
                ended.await();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Writes SSE text (committing the response as SSE first); false when the host is gone or the response over. */
    boolean write(String text, boolean last) {
        lock.lock();
        try {
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
                    String first = prologue == null ? null : prologue.get();
                    if (first != null) {
                        text = first + text;
                    }
                }
                Content.Sink.write(response, last, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
                finished = last;
                if (last) {
                    stopKeepAlive();
                    ended.signalAll();
                }
                return true;
            } catch (IOException | RuntimeException e) {
                broken = true;
                stopKeepAlive();
                ended.signalAll();
            }
        } finally {
            lock.unlock();
        }
        onBroken.accept(this);
        return false;
    }
}

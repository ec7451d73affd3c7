package dev.mcpx.front.http;

import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stream of messages to a host: a call's progress, requests and answer, or a listen stream's
 * notifications. {@link #send} is the one way to put a message on it, from any thread.
 *
 * <p>A modern stream lives and dies with its HTTP response. A legacy (resumable) stream outlives
 * it: every event gets an id ({@code <stream>-<seq>}) and is kept in the session's
 * {@link ReplayStore} (and, in a cluster, first in the {@link SharedStreams}); when the host's connection breaks the stream goes on detached (the call
 * keeps running, disconnection is not cancellation), and a GET with {@code Last-Event-ID}
 * ({@link #resume}) replays what was missed and carries the rest.
 */
final class SseStream {

    private static final JsonRpcCodec CODEC = new JsonRpcCodec();
    private static final Logger LOG = LoggerFactory.getLogger(SseStream.class);

    private final ReplayStore store;
    /** Whether this is a legacy stream a host can resume ({@link #store} keeps its events). */
    private final boolean resumable;
    /**
     * Its events in the store, opened when the stream first needs an event id (its priming
     * event, or an event kept): a call answered as plain JSON, most calls, never opens one.
     */
    private volatile StreamLog log;
    /** Guards opening {@link #log} only: it is opened from the connection's keep-alive timer too, which {@link #lock} would invert. */
    private final Object opening = new Object();
    private final String retryField;
    private final SseConnection origin;
    /** Held while writing to a slow host, so a lock that does not pin a virtual thread's carrier. */
    private final ReentrantLock lock = new ReentrantLock();
    /** The connection events go to now; null while the host is away. Guarded by {@link #lock}. */
    private SseConnection attached;
    /** Gives the host's request this call stream answers (null: a listen stream, or not said yet). */
    private volatile Supplier<String> runningRequest;

    private SseStream(ReplayStore store, SseSettings settings, Response response, Duration firstKeepAlive,
                      Duration keepAlive, Runnable onBroken, String[] extraHeaders) {
        this.store = store;
        this.resumable = store != null;
        this.retryField = settings == null ? null : "retry: " + settings.retry().toMillis() + "\n";
        if (firstKeepAlive == null) {
            origin = SseConnection.open(response, keepAlive, broken -> brokenConnection(broken, onBroken),
                    resumable ? prologue() : null, extraHeaders);
        } else {
            origin = SseConnection.deferred(response, firstKeepAlive, keepAlive,
                    broken -> brokenConnection(broken, onBroken), !resumable ? null : () -> {
                        String prologue = prologue();
                        // the host can resume from here on: the call it resumes must be known to every replica first
                        shareRunning();
                        return prologue;
                    }, extraHeaders);
        }
        attached = origin;
    }

    /** A modern SSE response that starts now (headers plus {@code extraHeaders} pairs at once). */
    static SseStream open(Response response, Duration keepAlive, Runnable onBroken, String... extraHeaders) {
        return new SseStream(null, null, response, null, keepAlive, onBroken, extraHeaders);
    }

    /**
     * A modern response that becomes SSE only when something must be sent before the answer
     * (progress, or a keep-alive after {@code keepAlive}); an answer that comes first goes out
     * as plain JSON with its own HTTP status ({@link #answer}).
     */
    static SseStream deferred(Response response, Duration keepAlive, Runnable onBroken, String... extraHeaders) {
        return new SseStream(null, null, response, keepAlive, keepAlive, onBroken, extraHeaders);
    }

    /** A legacy listen stream (GET): resumable, starting now with its priming event. */
    static SseStream resumable(ReplayStore store, SseSettings settings, Response response, Duration keepAlive) {
        return new SseStream(store, settings, response, null, keepAlive, () -> { }, new String[0]);
    }

    /**
     * A legacy call's stream (POST): plain JSON if the answer comes within the settings' JSON
     * window and nothing had to be sent before it, else resumable SSE from its priming event on.
     */
    static SseStream resumableCall(ReplayStore store, SseSettings settings, Response response, Duration keepAlive) {
        return new SseStream(store, settings, response, settings.jsonWindow(), keepAlive, () -> { }, new String[0]);
    }

    /** The priming event that starts a resumable stream's SSE, which opens its log. */
    private String prologue() {
        return "id: " + log().primingId() + "\n" + retryField + "data: \n\n";
    }

    private StreamLog log() {
        StreamLog opened = log;
        if (opened == null) {
            synchronized (opening) {
                opened = log;
                if (opened == null) {
                    opened = store.open(this);
                    log = opened;
                }
            }
        }
        return opened;
    }

    private void brokenConnection(SseConnection connection, Runnable onBroken) {
        if (!resumable) {
            onBroken.run();
            return;
        }
        lock.lock();
        try {
            if (attached == connection) {
                attached = null;
            }
        } finally {
            lock.unlock();
        }
    }

    static String event(String id, String data) {
        return (id == null ? "" : "id: " + id + "\n") + "event: message\ndata: " + data + "\n\n";
    }

    /**
     * Sends one message as an SSE event. False when it cannot reach the host: a modern host that
     * went away, or a legacy stream that ended or was dropped. A legacy host that is only away
     * gets it when it resumes.
     */
    boolean send(JsonRpcMessage message) {
        String data = CODEC.encode(message);
        if (!resumable) {
            return origin.write(event(null, data), false);
        }
        lock.lock();
        try {
            StreamLog log = log();
            StreamLog.Event kept = log.complete ? null : store.append(log, data);
            if (kept == null) {
                return false;
            }
            // kept for every replica before the host can see it: what it saw, another replica can resume after
            share(() -> store.shared.append(store.sessionId, log.id, kept.seq(), data));
            if (attached != null) {
                attached.write(event(kept.id(), data), false);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The one answer: plain JSON with {@code status} when nothing was streamed yet, else the last
     * event. A legacy stream whose host is away keeps it for a resuming GET.
     */
    void answer(JsonRpcMessage message, int status) {
        // most answers go out as plain JSON: encoded straight to bytes, text only for an event
        byte[] json = CODEC.encodeBytes(message);
        if (!resumable) {
            if (!origin.json(json, status)) {
                origin.write(event(null, new String(json, StandardCharsets.UTF_8)), false);
                origin.finish();
            }
            return;
        }
        lock.lock();
        try {
            if (attached == origin && origin.json(json, status)) {
                StreamLog opened = log;
                if (opened != null) {
                    store.drop(opened);
                }
                return;
            }
            String data = new String(json, StandardCharsets.UTF_8);
            StreamLog log = log();
            StreamLog.Event kept = log.complete ? null : store.append(log, data);
            if (kept != null) {
                share(() -> store.shared.answered(store.sessionId, log.id, kept.seq(), data));
            }
            store.complete(log, true);
            if (kept != null && attached != null) {
                SseConnection to = attached;
                attached = null;
                if (to.write(event(kept.id(), data), false) && to.finish()) {
                    store.delivered(log);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Ends the stream: nothing more is sent; a legacy stream's unsent events stay resumable for the grace period. */
    void finish() {
        if (!resumable) {
            origin.finish();
            return;
        }
        SseConnection to;
        lock.lock();
        try {
            StreamLog log = this.log;
            // a stream that sent nothing, for no call another replica may know of, ends here only
            if (log != null && store.complete(log, false) && (runningRequest != null && origin.isCommitted() || log.nextSeq > 1)) {
                long next = log.nextSeq;
                share(() -> store.shared.ended(store.sessionId, log.id, next));
            }
            to = attached;
            attached = null;
        } finally {
            lock.unlock();
        }
        if (to != null) {
            to.finish();
        }
    }

    /**
     * This call stream's call, the host's {@code request} (JSON-RPC text), runs here until
     * answered: once the stream turns into SSE (a host can resume it only then), every replica
     * knows, so one the host resumes on after this one died can take it over. A call answered
     * as plain JSON costs the shared streams nothing, and its request text is never made.
     */
    void running(Supplier<String> request) {
        runningRequest = request;
        if (origin.isCommitted()) {
            shareRunning();
        }
    }

    /** Writes to the shared streams; a failure leaves the stream resumable here only. */
    static void share(Runnable write) {
        try {
            write.run();
        } catch (SessionStoreException e) {
            LOG.warn("legacy stream: not kept for the other replicas: {}", e.getMessage());
        }
    }

    /**
     * A host's GET with {@code Last-Event-ID} {@code <stream>-afterSeq}: the kept events after it
     * on a new SSE response, then the live ones until the stream completes. The previous
     * connection, if any, is ended (a message goes on one connection only). Null when some of
     * the events were evicted meanwhile.
     */
    SseConnection resume(Response response, long afterSeq, Duration keepAlive, ReplayCounters counters) {
        lock.lock();
        try {
            StreamLog log = log();
            List<StreamLog.Event> replay = store.after(log, afterSeq);
            if (replay == null) {
                return null;
            }
            SseConnection previous = attached;
            attached = null;
            if (previous != null) {
                previous.finish();
            }
            SseConnection resumed = SseConnection.open(response, keepAlive,
                    broken -> brokenConnection(broken, () -> { }), retryField + "\n");
            counters.resumptions.incrementAndGet();
            for (StreamLog.Event event : replay) {
                if (!resumed.write(event(event.id(), event.data()), false)) {
                    return resumed;
                }
                counters.replayedEvents.incrementAndGet();
            }
            if (log.complete) {
                if (resumed.finish() && log.carriesResponse) {
                    store.delivered(log);
                }
            } else {
                attached = resumed;
            }
            return resumed;
        } finally {
            lock.unlock();
        }
    }

    private void shareRunning() {
        Supplier<String> running = runningRequest;
        if (running != null) {
            String stream = log().id;
            String request = running.get();
            share(() -> store.shared.started(store.sessionId, stream, request));
        }
    }

    /** The HTTP response that opened the stream: what its handler waits on. */
    SseConnection origin() {
        return origin;
    }

    /** True while some connection carries this stream to its host. */
    boolean isAttached() {
        lock.lock();
        try {
            return attached != null && attached.isOpen();
        } finally {
            lock.unlock();
        }
    }

    boolean isBroken() {
        return origin.isBroken();
    }

    /** Blocks the opening handler until its response is finished or the host went away. */
    void awaitEnd() throws InterruptedException {
        origin.awaitEnd();
    }
}

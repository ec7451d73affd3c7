package dev.mcpx.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GET stream on which a legacy server sends requests and notifications of its own. 405 means
 * the server offers none; a 404 (or a 400 naming the session) means the session is gone. While
 * the session lives, a dropped stream is reopened with {@code Last-Event-ID}, after the server's
 * {@code retry:} or an exponential backoff.
 *
 * <p>Session loss is reported only for a session this stream once reached: a session refused
 * from the first GET on was never alive here, and reporting it would make the client
 * re-initialize again and again against a server that refuses every session.
 */
final class ListenStream implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ListenStream.class);
    private static final int MAX_REFUSALS = 5;

    private final LegacyHttpTransport transport;
    private final String sessionId;
    private final StreamSlot slot = new StreamSlot();
    /** Completed when the first GET got its status line, failed, or the stream ended without one. */
    private final CompletableFuture<Void> firstAnswer = new CompletableFuture<>();
    private volatile Thread thread;

    ListenStream(LegacyHttpTransport transport, String sessionId) {
        this.transport = transport;
        this.sessionId = sessionId;
    }

    @Override
    public void run() {
        try {
            listen();
        } finally {
            firstAnswer.complete(null);
        }
    }

    /** True when the server answered the first GET (or it failed) within {@code limit}. */
    boolean awaitFirstAnswer(Duration limit) {
        try {
            firstAnswer.get(limit.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    private void listen() {
        thread = Thread.currentThread();
        LegacyHttpOptions options = transport.options();
        String lastEventId = null;
        long retryMillis = -1;
        int failures = 0;
        int refusals = 0;
        boolean reached = false;
        while (live()) {
            boolean delivered = false;
            try {
                HttpResponse<InputStream> response;
                try {
                    response = slot.open(transport.openEventStream(sessionId, lastEventId, slot));
                } finally {
                    firstAnswer.complete(null);
                }
                if (response == null) {
                    return;
                }
                int status = response.statusCode();
                if (status / 100 != 2) {
                    // only a 400 needs its body (does it name the session?); another refusal's body
                    // is dropped unread, so one that stalls holds neither this thread nor a connection
                    String text = status == 400 ? ResponseBodies.readErrorBody(response.body()) : "";
                    slot.release();
                    if (status == 405) {
                        LOG.debug("{}: the server offers no listen stream", transport.description());
                        return;
                    }
                    if (sessionId != null && (status == 404 || (status == 400 && ResponseBodies.rejectsSession(text)))) {
                        if (reached) {
                            transport.sessionLost(sessionId);
                        } else {
                            LOG.info("{}: listen stream refused for a new session (HTTP {}), not listening",
                                    transport.description(), status);
                        }
                        return;
                    }
                    if (++refusals >= MAX_REFUSALS) {
                        LOG.info("{}: listen stream refused {} times (HTTP {}), not reopening it",
                                transport.description(), refusals, status);
                        return;
                    }
                } else {
                    refusals = 0;
                    reached = true;
                    SseReader reader = new SseReader(response.body(), options.maxEventBytes());
                    try {
                        SseEvent event;
                        while ((event = reader.next()) != null) {
                            delivered = true;
                            if ("message".equals(event.event()) && !event.data().isBlank()) {
                                transport.deliver(event.data(), null);
                            }
                        }
                    } finally {
                        lastEventId = reader.lastEventId() != null ? reader.lastEventId() : lastEventId;
                        retryMillis = reader.retryMillis() >= 0 ? reader.retryMillis() : retryMillis;
                        slot.release();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException e) {
                LOG.debug("{}: listen stream broke: {}", transport.description(), e.toString());
            }
            failures = delivered ? 0 : failures + 1;
            if (!pause(wait(options, retryMillis, failures))) {
                return;
            }
        }
    }

    private static long wait(LegacyHttpOptions options, long retryMillis, int failures) {
        long base = retryMillis >= 0 ? retryMillis : options.defaultRetry().toMillis();
        long backoff = base << Math.min(failures, 10);
        return Math.min(Math.max(backoff, base), options.maxListenBackoff().toMillis());
    }

    private boolean live() {
        return !slot.stopped() && !transport.closed() && Objects.equals(sessionId, transport.currentSessionId());
    }

    private boolean pause(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
            return live();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void stop() {
        slot.stop();
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }
}

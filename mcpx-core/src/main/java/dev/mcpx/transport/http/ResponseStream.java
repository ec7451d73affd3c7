package dev.mcpx.transport.http;

import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.StreamLostException;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

/**
 * Reads the SSE stream that answers one POSTed request, on its own virtual thread. When the
 * stream ends before the response and it carried event ids, it resumes with GET and
 * {@code Last-Event-ID} after the server's {@code retry:} wait, a bounded number of times in a
 * row without progress; then the request fails with {@link StreamLostException}.
 */
final class ResponseStream implements Runnable {

    private final LegacyHttpTransport transport;
    private final RequestId requestId;
    private final String sessionId;
    private final InputStream firstBody;
    private final StreamSlot slot = new StreamSlot();
    private volatile Thread thread;

    ResponseStream(LegacyHttpTransport transport, RequestId requestId, InputStream body, String sessionId) {
        this.transport = transport;
        this.requestId = requestId;
        this.firstBody = body;
        this.sessionId = sessionId;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            follow();
        } finally {
            transport.finished(this);
        }
    }

    private void follow() {
        LegacyHttpOptions options = transport.options();
        String lastEventId = null;
        long retryMillis = -1;
        int attempts = 0;
        Exception lastFailure = null;
        InputStream current = slot.hold(firstBody) ? firstBody : null;
        while (!slot.stopped()) {
            if (current != null) {
                SseReader reader = new SseReader(current, options.maxEventBytes());
                try {
                    SseEvent event;
                    while ((event = reader.next()) != null) {
                        if (event.id() != null && !event.id().equals(lastEventId)) {
                            lastEventId = event.id();
                            attempts = 0;
                        }
                        if (isMessage(event) && transport.deliver(event.data(), requestId)) {
                            return;
                        }
                    }
                    lastFailure = null;
                } catch (SseReader.SseLimitException e) {
                    fail("an event exceeded the size limit", e);
                    return;
                } catch (IOException e) {
                    lastFailure = e;
                } finally {
                    slot.release();
                    if (reader.lastEventId() != null) {
                        lastEventId = reader.lastEventId();
                    }
                    if (reader.retryMillis() >= 0) {
                        retryMillis = reader.retryMillis();
                    }
                }
            }
            if (slot.stopped() || transport.closed()) {
                return;
            }
            if (lastEventId == null) {
                fail("the stream ended and carried no event id to resume from", lastFailure);
                return;
            }
            if (attempts >= options.maxResumeAttempts()) {
                fail("gave up after " + attempts + " resume attempts", lastFailure);
                return;
            }
            attempts++;
            if (!pause(retryMillis >= 0 ? retryMillis : options.defaultRetry().toMillis())) {
                return;
            }
            current = null;
            try {
                HttpResponse<InputStream> resumed = slot.open(transport.openEventStream(sessionId, lastEventId, slot));
                if (resumed == null) {
                    return;
                }
                int status = resumed.statusCode();
                if (status / 100 == 2 && ResponseBodies.isEventStream(resumed)) {
                    current = resumed.body();
                } else {
                    String text = ResponseBodies.readErrorBody(resumed.body());
                    slot.release();
                    lastFailure = new HttpStatusException(status, text);
                    if (status == 404 || status == 405 || status == 400) {
                        fail("resuming with Last-Event-ID " + lastEventId + " was refused", lastFailure);
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException e) {
                lastFailure = e;
            }
        }
    }

    private static boolean isMessage(SseEvent event) {
        return "message".equals(event.event()) && !event.data().isBlank();
    }

    private boolean pause(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
            return !slot.stopped();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void fail(String detail, Exception cause) {
        if (!slot.stopped()) {
            transport.failed(requestId, new StreamLostException(requestId, detail, cause));
        }
    }

    boolean answers(RequestId id) {
        return requestId.equals(id);
    }

    /** The transport is closing, or the client gave up on the request: stop, report nothing. */
    void stop() {
        slot.stop();
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }
}

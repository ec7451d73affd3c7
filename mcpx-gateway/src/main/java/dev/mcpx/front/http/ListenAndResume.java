package dev.mcpx.front.http;

import dev.mcpx.front.HostRequests;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcError;
import java.io.IOException;
import java.time.Duration;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A legacy session's GET: without {@code Last-Event-ID} it opens the session's listen stream
 * (replacing the previous one); with it, it resumes the one stream that id belongs to. An id
 * this session cannot resume (malformed, another session's, dropped or evicted) is 400 with a
 * JSON-RPC error saying why, never 404, which a host would take for a lost session. A stream
 * another replica sent is resumed from what it kept ({@link StreamTakeover}).
 */
final class ListenAndResume {

    private final SseSettings settings;
    private final ReplayCounters counters;
    private final Duration keepAlive;
    private final StreamTakeover elsewhere;

    ListenAndResume(SseSettings settings, ReplayCounters counters, Duration keepAlive, SharedStreams shared) {
        this.settings = settings;
        this.counters = counters;
        this.keepAlive = keepAlive;
        this.elsewhere = new StreamTakeover(shared, settings, counters, keepAlive);
    }

    /** {@code requests}: the session's profile's, for a call this replica takes over. */
    void serve(LegacySession session, HostRequests requests, String lastEventId, Response response, Callback callback)
            throws InterruptedException {
        if (lastEventId != null) {
            resume(session, requests, lastEventId.strip(), response, callback);
            return;
        }
        SseStream stream = SseStream.resumable(session.replay, settings, response, keepAlive);
        SseStream previous = session.listen;
        session.listen = stream;
        if (previous != null) {
            previous.finish();
        }
        session.host.reachable();
        // a listen stream whose host went away stays the session's: what it misses waits for a resume
        end(stream.origin(), callback);
    }

    private void resume(LegacySession session, HostRequests requests, String lastEventId, Response response,
                        Callback callback) throws InterruptedException {
        SseConnection resumed = null;
        String refusal;
        switch (session.replay.find(lastEventId)) {
            case ReplayStore.Resume.Found found -> {
                resumed = found.log().owner.resume(response, found.afterSeq(), keepAlive, counters);
                refusal = "Last-Event-ID " + lastEventId + " cannot be resumed: events after it were just dropped";
            }
            case ReplayStore.Resume.Refused refused -> refusal = refused.reason();
            case ReplayStore.Resume.NotHere notHere -> {
                if (elsewhere.resume(session, requests, notHere.stream(), notHere.afterSeq(), lastEventId, response,
                        callback)) {
                    return;
                }
                refusal = notHere.reason();
            }
        }
        if (resumed == null) {
            counters.refusedResumptions.incrementAndGet();
            Replies.error(response, callback, 400, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                    "Bad Request: " + refusal));
            return;
        }
        end(resumed, callback);
    }

    private static void end(SseConnection connection, Callback callback) throws InterruptedException {
        connection.awaitEnd();
        if (connection.isBroken()) {
            callback.failed(new IOException("host went away"));
        } else {
            callback.succeeded();
        }
    }
}

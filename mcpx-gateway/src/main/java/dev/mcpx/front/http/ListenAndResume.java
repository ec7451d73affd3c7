package dev.mcpx.front.http;

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
 * JSON-RPC error saying why, never 404, which a host would take for a lost session.
 */
final class ListenAndResume {

    private final SseSettings settings;
    private final ReplayCounters counters;
    private final Duration keepAlive;

    ListenAndResume(SseSettings settings, ReplayCounters counters, Duration keepAlive) {
        this.settings = settings;
        this.counters = counters;
        this.keepAlive = keepAlive;
    }

    void serve(LegacySession session, String lastEventId, Response response, Callback callback)
            throws InterruptedException {
        if (lastEventId != null) {
            resume(session, lastEventId.strip(), response, callback);
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

    private void resume(LegacySession session, String lastEventId, Response response, Callback callback)
            throws InterruptedException {
        SseConnection resumed = null;
        String refusal;
        switch (session.replay.find(lastEventId)) {
            case ReplayStore.Resume.Found found -> {
                resumed = found.log().owner.resume(response, found.afterSeq(), keepAlive, counters);
                refusal = "Last-Event-ID " + lastEventId + " cannot be resumed: events after it were just dropped";
            }
            case ReplayStore.Resume.Refused refused -> refusal = refused.reason();
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

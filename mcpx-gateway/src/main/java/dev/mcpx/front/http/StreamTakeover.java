package dev.mcpx.front.http;

import dev.mcpx.client.Cancellation;
import dev.mcpx.front.HostRequests;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.StreamLostException;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A host's resume ({@code Last-Event-ID}) of a stream another replica sent: what that replica kept
 * in the {@link SharedStreams} is replayed, then what it still writes is carried until the stream
 * ends. When that replica is gone with the stream's call unanswered, this one takes the call over
 * (one replica only): it runs it once more when a repeat is harmless (the upstream's rule for a
 * lost stream) and otherwise answers with the stream-lost error. A call whose answer was kept is
 * replayed, never run again. A listen stream whose replica is gone ends: the host opens a new one.
 */
final class StreamTakeover {

    private static final Logger LOG = LoggerFactory.getLogger(StreamTakeover.class);
    /** How long one read waits for the next event before looking whether the writer is still alive. */
    private static final Duration WAIT = Duration.ofSeconds(1);

    private final SharedStreams shared;
    private final SseSettings settings;
    private final ReplayCounters counters;
    private final Duration keepAlive;
    private final JsonRpcCodec codec = new JsonRpcCodec();
    /** Streams whose call runs here after a takeover (session id and stream): their writer is alive. */
    private final Set<String> runningHere = ConcurrentHashMap.newKeySet();

    StreamTakeover(SharedStreams shared, SseSettings settings, ReplayCounters counters, Duration keepAlive) {
        this.shared = shared;
        this.settings = settings;
        this.counters = counters;
        this.keepAlive = keepAlive;
    }

    /**
     * Serves the resume of {@code stream} after {@code afterSeq}; false when no replica kept
     * anything of it (the caller refuses the resume).
     */
    boolean resume(LegacySession session, HostRequests requests, String stream, long afterSeq, String lastEventId,
                   Response response, Callback callback) throws InterruptedException {
        Optional<SharedStreams.Kept> kept = shared.read(session.id, stream, afterSeq, Duration.ZERO);
        if (kept.isEmpty()) {
            return false;
        }
        if (kept.get().evicted()) {
            counters.refusedResumptions.incrementAndGet();
            Replies.error(response, callback, 400, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST, "Bad Request:"
                    + " Last-Event-ID " + lastEventId + " cannot be resumed: events after it were dropped (a stream keeps"
                    + " at most " + settings.maxEvents() + " events for resuming)"));
            return true;
        }
        SseConnection connection = SseConnection.open(response, keepAlive, broken -> { },
                "retry: " + settings.retry().toMillis() + "\n\n");
        counters.resumptions.incrementAndGet();
        try {
            carry(session, requests, stream, afterSeq, kept.get(), connection);
        } catch (SessionStoreException e) {
            // the host resumes again, from what it got, once Redis answers
            LOG.warn("legacy session {}: resuming stream {}: {}", session.auditName, stream, e.getMessage());
            connection.finish();
        }
        connection.awaitEnd();
        if (connection.isBroken()) {
            callback.failed(new IOException("host went away"));
        } else {
            callback.succeeded();
        }
        return true;
    }

    private void carry(LegacySession session, HostRequests requests, String stream, long afterSeq,
                       SharedStreams.Kept first, SseConnection connection) {
        long after = afterSeq;
        SharedStreams.Kept kept = first;
        while (true) {
            for (SharedStreams.Event event : kept.events()) {
                if (!connection.write(SseStream.event(stream + "-" + event.seq(), event.data()), false)) {
                    // the host went away again: the rest stays kept for its next resume
                    return;
                }
                counters.replayedEvents.incrementAndGet();
                after = event.seq();
            }
            if (kept.ended()) {
                connection.finish();
                return;
            }
            if (!connection.isOpen()) {
                return;
            }
            String writer = kept.running().map(SharedStreams.Running::replica).orElse(kept.writer());
            if (writer == null || gone(session, stream, writer)) {
                if (kept.running().isEmpty()) {
                    // a listen stream whose replica is gone: nothing will come on it, the host opens a new one
                    connection.finish();
                    return;
                }
                Optional<SharedStreams.Claimed> claimed = shared.claim(session.id, stream, writer);
                if (claimed.isPresent()) {
                    takeOver(session, requests, stream, after, writer, claimed.get(), connection);
                    return;
                }
            }
            Optional<SharedStreams.Kept> next = shared.read(session.id, stream, after, WAIT);
            if (next.isEmpty()) {
                connection.finish();
                return;
            }
            kept = next.get();
        }
    }

    private boolean gone(LegacySession session, String stream, String writer) {
        return shared.replica().equals(writer) ? !runningHere.contains(session.id + " " + stream) : !shared.alive(writer);
    }

    /** The call ran on {@code deadReplica}, which died before its answer: it is this replica's now. */
    private void takeOver(LegacySession session, HostRequests requests, String stream, long lastSeq, String deadReplica,
                          SharedStreams.Claimed claimed, SseConnection connection) {
        Writer writer = new Writer(session.id, stream, lastSeq, connection);
        Request hostRequest = decoded(claimed.request());
        if (hostRequest == null) {
            LOG.warn("legacy session {}: the call kept for stream {} is not a request: {}", session.auditName, stream,
                    claimed.request());
            writer.end();
            return;
        }
        if (claimed.reissuedBefore() || !requests.harmlessToRepeat(hostRequest)) {
            String why = claimed.reissuedBefore() ? "it was run once more already" : "a repeat may not be harmless";
            LOG.info("legacy session {}: {} {} was running on replica {}, which stopped; answering that its response"
                    + " was lost ({})", session.auditName, hostRequest.method(), hostRequest.id(), deadReplica, why);
            writer.answer(new ErrorResponse(hostRequest.id(), new StreamLostException(hostRequest.id(), "the mcpx replica "
                    + deadReplica + " that ran it stopped, and it was not run again: " + why, null).toError()));
            return;
        }
        LOG.info("legacy session {}: {} {} was running on replica {}, which stopped; running it once more here",
                session.auditName, hostRequest.method(), hostRequest.id(), deadReplica);
        String key = session.id + " " + stream;
        runningHere.add(key);
        try {
            // taken in as the session's own call: cancellable by id, counted in its call limit
            JsonRpcMessage hostResult = session.host.take(hostRequest, Era.LEGACY, new Cancellation()).answer(writer::send);
            if (hostResult == null) {
                writer.end();
            } else {
                writer.answer(hostResult);
            }
        } finally {
            runningHere.remove(key);
        }
    }

    private Request decoded(String text) {
        try {
            return codec.decode(text) instanceof Request request ? request : null;
        } catch (MalformedMessageException e) {
            return null;
        }
    }

    /** Writes a taken-over stream's next events: kept for every replica first, then to the host if it is here. */
    private final class Writer {
        private final String sessionId;
        private final String stream;
        private final SseConnection connection;
        private long seq;

        Writer(String sessionId, String stream, long lastSeq, SseConnection connection) {
            this.sessionId = sessionId;
            this.stream = stream;
            this.seq = lastSeq;
            this.connection = connection;
        }

        synchronized boolean send(JsonRpcMessage message) {
            String data = codec.encode(message);
            seq++;
            long kept = seq;
            SseStream.share(() -> shared.append(sessionId, stream, kept, data));
            connection.write(SseStream.event(stream + "-" + seq, data), false);
            return true;
        }

        synchronized void answer(JsonRpcMessage message) {
            String data = codec.encode(message);
            seq++;
            long kept = seq;
            SseStream.share(() -> shared.answered(sessionId, stream, kept, data));
            connection.write(SseStream.event(stream + "-" + seq, data), false);
            connection.finish();
        }

        synchronized void end() {
            long next = seq + 1;
            SseStream.share(() -> shared.ended(sessionId, stream, next));
            connection.finish();
        }
    }
}

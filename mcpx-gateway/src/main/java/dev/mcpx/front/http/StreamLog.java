package dev.mcpx.front.http;

import java.util.ArrayDeque;

/**
 * The kept events of one legacy SSE stream. Event ids are {@code <stream>-<seq>}: stream ids
 * are unique across the front (and, in a cluster, across replicas: {@link SharedStreams#streamPrefix}),
 * so an id names its stream and no other session's; seq 0 is the priming event, which carries no
 * data and is not kept. Guarded by its {@link ReplayStore}.
 */
final class StreamLog {

    record Event(StreamLog log, long seq, String data, long bytes) {

        String id() {
            return log.id + "-" + seq;
        }
    }

    final String id;
    final SseStream owner;
    final ArrayDeque<Event> events = new ArrayDeque<>();
    long nextSeq = 1;
    /** Events before this seq were evicted: a resume from before it would miss them. */
    long firstKept = 1;
    boolean complete;
    boolean carriesResponse;
    /** The answer was written to a connection that then ended cleanly. */
    boolean delivered;
    long completedAtNanos;

    StreamLog(String id, SseStream owner) {
        this.id = id;
        this.owner = owner;
    }

    String primingId() {
        return id + "-0";
    }
}

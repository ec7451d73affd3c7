package dev.mcpx.front.http;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where the events of legacy hosts' resumable streams go besides this replica's memory, and the
 * calls they belong to while those run: in a cluster, a store every replica reads, so a host whose
 * replica died (or whose next GET lands elsewhere) resumes with {@code Last-Event-ID} on another
 * one. Alone ({@link #ALONE}), nowhere: a stream lives and dies with this process.
 *
 * <p>Everything written here is written before the host can see it, so what a host has seen is
 * always kept. A failure to write is the caller's to log: the stream goes on here.
 */
public interface SharedStreams {

    /** One process: stream ids are plain numbers, nothing is kept elsewhere, no other replica asks. */
    SharedStreams ALONE = new SharedStreams() {
        @Override
        public String streamPrefix() {
            return "";
        }

        @Override
        public void started(String sessionId, String streamId, String request) {
        }

        @Override
        public void append(String sessionId, String streamId, long seq, String data) {
        }

        @Override
        public void answered(String sessionId, String streamId, long seq, String data) {
        }

        @Override
        public void ended(String sessionId, String streamId, long seq) {
        }

        @Override
        public Optional<Kept> read(String sessionId, String streamId, long afterSeq, Duration wait) {
            return Optional.empty();
        }

        @Override
        public Optional<Claimed> claim(String sessionId, String streamId, String deadReplica) {
            return Optional.empty();
        }

        @Override
        public String replica() {
            return "";
        }

        @Override
        public boolean alive(String replica) {
            return true;
        }
    };

    /** One kept event: its seq in the stream and its JSON-RPC text. */
    record Event(long seq, String data) {
    }

    /** A call in flight on stream: which replica runs it, and the host's request as JSON-RPC text. */
    record Running(String replica, String request) {
    }

    /** A call taken over from a replica that died: the host's request, and whether it was re-issued once already. */
    record Claimed(String request, boolean reissuedBefore) {
    }

    /**
     * What is kept of one stream after a seq.
     *
     * @param events  the events after it, oldest first
     * @param evicted events after it were dropped (the stream's bound, or its expiry): a resume would miss them
     * @param ended   the stream is over (its answer, if any, is the last event)
     * @param writer  the replica that wrote its last event (null: none kept)
     * @param running the call in flight on it, if any
     */
    record Kept(List<Event> events, boolean evicted, boolean ended, String writer, Optional<Running> running) {

        public Kept {
            events = List.copyOf(events);
        }
    }

    /** Put before each stream number of this replica, so event ids are unique across replicas ("" alone). */
    String streamPrefix();

    /** A call's stream turned into SSE: {@code request} (the host's JSON-RPC request) runs on this replica until answered. */
    void started(String sessionId, String streamId, String request);

    /** Keeps event {@code seq} of the stream. */
    void append(String sessionId, String streamId, long seq, String data);

    /** Keeps the call's answer as event {@code seq}, the last one, and forgets that the call runs. */
    void answered(String sessionId, String streamId, long seq, String data);

    /** The stream ended with no answer on it ({@code seq}: the next seq it would have used). */
    void ended(String sessionId, String streamId, long seq);

    /**
     * What is kept of the stream after {@code afterSeq}, waiting up to {@code wait} for an event
     * when there is none yet; empty when nothing is known of the stream.
     */
    Optional<Kept> read(String sessionId, String streamId, long afterSeq, Duration wait);

    /**
     * Takes over the call that ran on {@code deadReplica}: present for exactly one replica that
     * asks, which now runs it (or answers it); empty when it was answered or taken meanwhile.
     */
    Optional<Claimed> claim(String sessionId, String streamId, String deadReplica);

    /** This replica's name. */
    String replica();

    /** Whether {@code replica} still announces itself (a replica killed stops within a few seconds). */
    boolean alive(String replica);
}

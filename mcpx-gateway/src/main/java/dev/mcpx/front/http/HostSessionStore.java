package dev.mcpx.front.http;

import dev.mcpx.router.LogLevel;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where the shareable part of legacy host sessions lives: in this process ({@link #inMemory}),
 * or in a store every replica of a cluster reads, so a session created on one replica works on
 * all. What cannot be shared (calls in flight, the listen stream, kept events) stays with the
 * replica that holds it.
 */
public interface HostSessionStore extends AutoCloseable {

    /** Sessions known to this process only: mcpx as one process. */
    static HostSessionStore inMemory() {
        return new InMemorySessionStore();
    }

    /** Keeps a new session. */
    void create(SharedSession session);

    /** The session as last stored, its expiry pushed back; empty once it ended or expired. */
    Optional<SharedSession> touch(String id);

    /**
     * Notes that the session's host sent {@code initialized}, unless the session ended meanwhile.
     * One field at a time: two replicas changing different fields at once both keep their change.
     */
    void initialized(String id);

    /** Stores the level the session's host set, unless the session ended meanwhile. */
    void logLevel(String id, LogLevel level);

    /** Stores that the session's host subscribed to the resource {@code uri}, or no longer is. */
    void subscription(String id, String uri, boolean subscribed);

    /** Ends the session for every replica; false when it was not there. */
    boolean remove(String id);

    /**
     * This replica forgot the session after {@code idleLimit} without use here: a store of this
     * process forgets it too; a shared one leaves it to its own expiry, as other replicas may use it.
     */
    void forgotIdle(String id);

    /** {@code ended} is told the id of each session another replica ended. */
    void onRemovedElsewhere(Consumer<String> ended);

    @Override
    void close();
}

package dev.mcpx.pool;

/** Hears that an upstream session ended: its client was closed or replaced, or its legacy session re-initialized. */
@FunctionalInterface
public interface SessionEnded {

    SessionEnded NONE = (upstream, transport, protocolVersion, nanos) -> { };

    /** {@code upstream}'s session over {@code transport} ({@code stdio}, {@code http}, {@code sse}) lasted {@code nanos}. */
    void ended(String upstream, String transport, String protocolVersion, long nanos);
}

package dev.mcpx.client;

import java.util.concurrent.atomic.AtomicLong;

/** What the client has done, for {@code /status}: cheap counters, read without locking. */
public final class ClientCounters {

    final AtomicLong requests = new AtomicLong();
    final AtomicLong reinitializations = new AtomicLong();
    final AtomicLong reissues = new AtomicLong();
    final AtomicLong errors = new AtomicLong();

    public Snapshot snapshot() {
        return new Snapshot(requests.get(), reinitializations.get(), reissues.get(), errors.get());
    }

    public record Snapshot(long requests, long reinitializations, long reissues, long errors) {
    }
}

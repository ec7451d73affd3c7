package dev.mcpx.client;

import java.util.concurrent.atomic.AtomicLong;

/** What the client has done, for {@code /status}: cheap counters, read without locking. */
public final class ClientCounters {

    final AtomicLong requests = new AtomicLong();
    final AtomicLong reinitializations = new AtomicLong();
    final AtomicLong reissues = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicLong eraChanges = new AtomicLong();

    public Snapshot snapshot() {
        return new Snapshot(requests.get(), reinitializations.get(), reissues.get(), errors.get(), eraChanges.get());
    }

    /**
     * {@code reissues}: messages sent once more because their response was lost (a broken modern
     * stream, or a POST that got no response on a dead kept-alive connection; see {@code Resends}).
     * {@code eraChanges}: how often the upstream was found redeployed in the other era and the client switched.
     */
    public record Snapshot(long requests, long reinitializations, long reissues, long errors, long eraChanges) {

        public Snapshot(long requests, long reinitializations, long reissues, long errors) {
            this(requests, reinitializations, reissues, errors, 0);
        }
    }
}

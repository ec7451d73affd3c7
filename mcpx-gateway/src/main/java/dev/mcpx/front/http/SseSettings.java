package dev.mcpx.front.http;

import java.time.Duration;

/**
 * How the legacy front shapes and keeps its SSE streams. Constants, not config keys: a routed
 * call answered within {@code jsonWindow} is plain JSON, a longer one becomes a resumable SSE
 * stream; each session keeps at most {@code maxEvents} events and {@code maxBytes} of
 * them for resuming GETs; a stream whose answer never reached a connection is dropped
 * {@code grace} after it completed, one whose answer was written {@code linger} after that (a
 * successful write is not proof of delivery: a host whose network dropped without a reset looks
 * alive for a while, then resumes).
 */
record SseSettings(Duration jsonWindow, Duration retry, int maxEvents, long maxBytes, Duration grace, Duration linger) {

    /** Short enough that any call slower than a local round trip gets a resumable stream. */
    static final Duration LEGACY_JSON_WINDOW = Duration.ofMillis(50);
    /** The {@code retry:} every legacy stream announces: how long a host waits before resuming. */
    static final Duration RETRY = Duration.ofSeconds(1);
    static final int MAX_EVENTS_PER_SESSION = 1_000;
    static final long MAX_BYTES_PER_SESSION = 8L * 1024 * 1024;
    /** How long a broken stream's events (and its call's result) wait for the host to resume. */
    static final Duration RESUME_GRACE = Duration.ofMinutes(2);
    /** How long a stream whose answer was written stays resumable, in case the write went nowhere. */
    static final Duration DELIVERED_LINGER = Duration.ofSeconds(10);

    static final SseSettings DEFAULTS = new SseSettings(LEGACY_JSON_WINDOW, RETRY, MAX_EVENTS_PER_SESSION,
            MAX_BYTES_PER_SESSION, RESUME_GRACE, DELIVERED_LINGER);

    /** How often expired streams and idle sessions are looked for: often enough to honour {@code grace}. */
    Duration sweepEvery() {
        long millis = Math.clamp(Math.min(grace.toMillis(), linger.toMillis()) / 4, 50, 5_000);
        return Duration.ofMillis(millis);
    }
}

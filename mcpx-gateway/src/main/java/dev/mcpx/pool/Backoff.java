package dev.mcpx.pool;

import java.time.Duration;

/**
 * Capped exponential backoff between start attempts: {@code initial}, doubling, at most
 * {@code cap}. A run that stayed up for {@code stableAfter} resets it.
 */
public record Backoff(Duration initial, Duration cap, Duration stableAfter) {

    public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(250), Duration.ofSeconds(30), Duration.ofSeconds(10));

    /** The wait before attempt number {@code failures + 1}, after {@code failures} failures in a row. */
    public Duration delay(int failures) {
        if (failures <= 0) {
            return Duration.ZERO;
        }
        long millis = initial.toMillis() << Math.min(failures - 1, 20);
        return Duration.ofMillis(Math.min(millis, cap.toMillis()));
    }
}

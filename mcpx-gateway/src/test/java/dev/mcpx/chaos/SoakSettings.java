package dev.mcpx.chaos;

import java.time.Duration;

/**
 * What one soak run does, from system properties so a long run needs no code change:
 * {@code mcpx.soak.seed}, {@code mcpx.soak.seconds}, {@code mcpx.soak.callers}, {@code mcpx.soak.stdioHosts}.
 *
 * @param seed     everything random in the run derives from it
 * @param duration how long callers keep calling while faults are injected
 * @param callers  concurrent host callers on the HTTP front (half legacy-era hosts, half modern-era)
 * @param stdioHosts hosts on the stdio front, each with several calls in flight
 */
record SoakSettings(long seed, Duration duration, int callers, int stdioHosts) {

    static SoakSettings fromSystemProperties(long defaultSeed, Duration defaultDuration) {
        long seed = Long.getLong("mcpx.soak.seed", defaultSeed);
        long seconds = Long.getLong("mcpx.soak.seconds", defaultDuration.toSeconds());
        int callers = Integer.getInteger("mcpx.soak.callers", 12);
        int stdioHosts = Integer.getInteger("mcpx.soak.stdioHosts", 2);
        return new SoakSettings(seed, Duration.ofSeconds(seconds), callers, stdioHosts);
    }
}

package dev.mcpx.chaos;

import java.time.Duration;

/**
 * What one soak run does, from system properties so a long run needs no code change:
 * {@code mcpx.soak.seed}, {@code mcpx.soak.seconds}, {@code mcpx.soak.callers}.
 *
 * @param seed     everything random in the run derives from it
 * @param duration how long callers keep calling while faults are injected
 * @param callers  concurrent host callers (half legacy-era hosts, half modern-era)
 */
record SoakSettings(long seed, Duration duration, int callers) {

    static SoakSettings fromSystemProperties(long defaultSeed, Duration defaultDuration) {
        long seed = Long.getLong("mcpx.soak.seed", defaultSeed);
        long seconds = Long.getLong("mcpx.soak.seconds", defaultDuration.toSeconds());
        int callers = Integer.getInteger("mcpx.soak.callers", 12);
        return new SoakSettings(seed, Duration.ofSeconds(seconds), callers);
    }
}

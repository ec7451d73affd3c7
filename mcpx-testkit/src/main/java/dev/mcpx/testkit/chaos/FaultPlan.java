package dev.mcpx.testkit.chaos;

import java.util.Random;

/**
 * A seeded choice of fault per connection: connection {@code n} of a plan with seed {@code s}
 * always gets the same fault, so a run is reproducible from its seed up to thread timing.
 *
 * @param seed       the run's seed
 * @param cutPercent share of connections cut somewhere in their response
 * @param stallPercent share that never answer
 * @param slowPercent share that answer slowly
 * @param maxCutBytes cuts fall uniformly in {@code [0, maxCutBytes]}
 * @param maxDelayMillis slow connections wait up to this long per chunk
 */
public record FaultPlan(long seed, int cutPercent, int stallPercent, int slowPercent, int maxCutBytes,
                        long maxDelayMillis) {

    public FaultPlan {
        if (cutPercent < 0 || stallPercent < 0 || slowPercent < 0 || cutPercent + stallPercent + slowPercent > 100) {
            throw new IllegalArgumentException("fault percentages must be non-negative and sum to at most 100");
        }
    }

    /** A plan that never injects anything. */
    public static FaultPlan none() {
        return new FaultPlan(0, 0, 0, 0, 0, 0);
    }

    public ConnectionFault faultFor(long connection) {
        Random random = new Random(seed * 1_000_003L + connection);
        int roll = random.nextInt(100);
        if (roll < cutPercent) {
            return new ConnectionFault.Cut(random.nextInt(maxCutBytes + 1));
        }
        roll -= cutPercent;
        if (roll < stallPercent) {
            return new ConnectionFault.Stall();
        }
        roll -= stallPercent;
        if (roll < slowPercent) {
            return new ConnectionFault.Slow(1 + random.nextLong(maxDelayMillis));
        }
        return new ConnectionFault.Pass();
    }
}

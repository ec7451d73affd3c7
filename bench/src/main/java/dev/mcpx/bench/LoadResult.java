package dev.mcpx.bench;

/** One measured cell: a set-up at a number of concurrent callers. Latencies in milliseconds. */
public record LoadResult(String setup, int callers, long calls, long errors, double callsPerSecond,
                         double p50Millis, double p99Millis, String firstError) {
}

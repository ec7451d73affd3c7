package dev.mcpx.bench;

import java.util.Arrays;
import java.util.List;

/** Per-thread latency samples in nanoseconds, appended without locks and merged once. */
final class Latencies {

    private long[] samples = new long[4096];
    private int size;

    void add(long nanos) {
        if (size == samples.length) {
            samples = Arrays.copyOf(samples, size * 2);
        }
        samples[size++] = nanos;
    }

    int size() {
        return size;
    }

    /** All samples of all threads, sorted. */
    static long[] merged(List<Latencies> all) {
        long[] merged = new long[all.stream().mapToInt(Latencies::size).sum()];
        int at = 0;
        for (Latencies l : all) {
            System.arraycopy(l.samples, 0, merged, at, l.size);
            at += l.size;
        }
        Arrays.sort(merged);
        return merged;
    }

    /** The nearest-rank percentile of sorted samples, in milliseconds; NaN when there are none. */
    static double percentileMillis(long[] sorted, double percentile) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
    }
}

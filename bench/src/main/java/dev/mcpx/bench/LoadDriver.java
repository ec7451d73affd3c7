package dev.mcpx.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * N host callers, each a virtual thread calling in a closed loop for warm-up plus a measured
 * window. Only calls that start and end inside the window count, so a slow tail of the
 * warm-up or a straggler after the end does not skew the rate.
 */
final class LoadDriver {

    /** One host call; throws on any failure. */
    @FunctionalInterface
    interface Call {
        void run() throws Exception;
    }

    private LoadDriver() {
    }

    /** {@code calls} gives caller i its call (say, its host session). */
    static LoadResult run(String setup, int callers, Duration warmup, Duration window, IntFunction<Call> calls)
            throws InterruptedException {
        long start = System.nanoTime();
        long windowStart = start + warmup.toNanos();
        long windowEnd = windowStart + window.toNanos();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        List<Latencies> perThread = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            Latencies latencies = new Latencies();
            Call call = calls.apply(i);
            perThread.add(latencies);
            threads.add(Thread.ofVirtual().name("caller-" + i).start(() -> {
                long now = System.nanoTime();
                while (now < windowEnd) {
                    long began = now;
                    try {
                        call.run();
                        now = System.nanoTime();
                        if (began >= windowStart && now <= windowEnd) {
                            latencies.add(now - began);
                        }
                    } catch (Exception e) {
                        now = System.nanoTime();
                        if (began >= windowStart) {
                            errors.incrementAndGet();
                        }
                        firstError.compareAndSet(null, e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        long[] sorted = Latencies.merged(perThread);
        double seconds = window.toNanos() / 1e9;
        return new LoadResult(setup, callers, sorted.length, errors.get(), sorted.length / seconds,
                Latencies.percentileMillis(sorted, 50), Latencies.percentileMillis(sorted, 99), firstError.get());
    }
}

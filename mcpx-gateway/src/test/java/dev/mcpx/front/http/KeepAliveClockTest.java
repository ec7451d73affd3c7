package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The shared clock of the SSE JSON windows and keep-alives: due actions run once, cancelled ones never, after idling too. */
class KeepAliveClockTest {

    private final KeepAliveClock clock = new KeepAliveClock("keepalive-clock-test");

    @Test
    void anActionRunsOnceNoEarlierThanItsDelay() throws InterruptedException {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch ran = new CountDownLatch(1);
        long scheduled = System.nanoTime();
        long[] ranAt = new long[1];
        clock.schedule(Duration.ofMillis(30), () -> {
            ranAt[0] = System.nanoTime();
            runs.incrementAndGet();
            ran.countDown();
        });

        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ranAt[0] - scheduled).isGreaterThanOrEqualTo(Duration.ofMillis(30).toNanos());
        // a later action with the same delay has run once it has: the first was not run twice meanwhile
        awaitRun(Duration.ofMillis(30));
        assertThat(runs).hasValue(1);
    }

    @Test
    void aCancelledActionNeverRuns() throws InterruptedException {
        AtomicInteger cancelledRuns = new AtomicInteger();
        clock.schedule(Duration.ofMillis(20), cancelledRuns::incrementAndGet).cancel();

        // same delay, scheduled after it: by the time this one runs, the cancelled one was due and skipped
        awaitRun(Duration.ofMillis(20));
        assertThat(cancelledRuns).hasValue(0);
    }

    @Test
    void aClockWithNothingPendingWakesForTheNextAction() throws InterruptedException {
        awaitRun(Duration.ofMillis(10));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!clock.parked() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(clock.parked()).isTrue();

        awaitRun(Duration.ofMillis(10));
    }

    private void awaitRun(Duration delay) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        clock.schedule(delay, ran::countDown);
        assertThat(ran.await(5, TimeUnit.SECONDS)).as("an action %s after scheduling ran", delay).isTrue();
    }
}

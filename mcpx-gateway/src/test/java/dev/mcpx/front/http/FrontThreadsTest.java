package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FrontThreadsTest {

    @Test
    void aTaskRunsOnAPlatformThreadWhileThereAreFewerThanTheLimit() throws Exception {
        FrontThreads threads = new FrontThreads(2, 100);
        threads.start();
        try {
            CompletableFuture<Boolean> virtual = new CompletableFuture<>();
            threads.execute(() -> virtual.complete(Thread.currentThread().isVirtual()));
            assertThat(virtual.get(10, TimeUnit.SECONDS)).isFalse();
        } finally {
            threads.stop();
        }
    }

    @Test
    void tasksBeyondTheBusyPlatformThreadsRunOnVirtualThreadsInsteadOfWaiting() throws Exception {
        FrontThreads threads = new FrontThreads(2, 100);
        threads.start();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(2);
        try {
            for (int i = 0; i < 2; i++) {
                threads.execute(() -> {
                    blocked.countDown();
                    await(release);
                });
            }
            assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(threads.busyPlatformThreads()).isEqualTo(2);
            CompletableFuture<Boolean> third = new CompletableFuture<>();
            threads.execute(() -> third.complete(Thread.currentThread().isVirtual()));
            assertThat(third.get(10, TimeUnit.SECONDS)).as("ran while both platform threads were blocked, virtually")
                    .isTrue();
            assertThat(threads.tryExecute(() -> { })).isTrue();
            assertThat(threads.isLowOnThreads()).isFalse();
        } finally {
            release.countDown();
            threads.stop();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

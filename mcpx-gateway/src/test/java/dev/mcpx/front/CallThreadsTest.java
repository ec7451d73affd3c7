package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CallThreadsTest {

    @Test
    void aCallRunsOnANamedPlatformThread() throws Exception {
        CallThreads threads = new CallThreads(2, "test-call", task -> Thread.ofVirtual().start(task));
        try {
            CompletableFuture<Thread> ran = new CompletableFuture<>();
            threads.execute(() -> ran.complete(Thread.currentThread()));
            Thread thread = ran.get(10, TimeUnit.SECONDS);
            assertThat(thread.isVirtual()).isFalse();
            assertThat(thread.getName()).startsWith("test-call-");
            assertThat(threads.platformThreads()).isEqualTo(1);
        } finally {
            threads.shutdown();
        }
    }

    @Test
    void callsBeyondTheBusyPlatformThreadsTakeTheOverflowInsteadOfWaiting() throws Exception {
        CallThreads threads = new CallThreads(2, "test-call", task -> Thread.ofVirtual().start(task));
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
            assertThat(third.get(10, TimeUnit.SECONDS)).as("ran while both platform threads were held, virtually").isTrue();
        } finally {
            release.countDown();
            threads.shutdown();
        }
    }

    @Test
    void afterShutdownACallStillRunsOnTheOverflow() throws Exception {
        CallThreads threads = new CallThreads(2, "test-call", task -> Thread.ofVirtual().start(task));
        threads.shutdown();
        CompletableFuture<Boolean> ran = new CompletableFuture<>();
        threads.execute(() -> ran.complete(Thread.currentThread().isVirtual()));
        assertThat(ran.get(10, TimeUnit.SECONDS)).isTrue();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

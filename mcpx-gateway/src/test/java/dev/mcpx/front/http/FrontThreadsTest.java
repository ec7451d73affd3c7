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
    void jettyIsToldATaskAlwaysHasAThreadAndThePoolIsNeverLow() throws Exception {
        FrontThreads threads = new FrontThreads(1, 100);
        threads.start();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(3);
        try {
            for (int i = 0; i < 3; i++) {
                assertThat(threads.tryExecute(() -> {
                    ran.countDown();
                    await(release);
                })).isTrue();
            }
            // one platform thread is held, and the two tasks past it run on Jetty's virtual threads
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(threads.busyPlatformThreads()).isEqualTo(1);
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

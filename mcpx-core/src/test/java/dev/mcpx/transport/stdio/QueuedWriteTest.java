package dev.mcpx.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A write that times out before it began (queued behind another, or not yet scheduled on a loaded
 * machine) says so and leaves the child alone; only a write that began and could not finish
 * marks the child as deaf.
 */
class QueuedWriteTest {

    @Test
    void aWriteQueuedBehindAStuckWriteFailsWithoutKillingTheChild() throws Exception {
        // sleep never reads its stdin: a line larger than the pipe blocks its write for good
        StdioTransport transport = new StdioTransport(UpstreamEndpoint.Stdio.of("sleep", "600"), 4 * 1024 * 1024);
        transport.start(event -> { });
        try {
            Thread stuck = Thread.ofVirtual().start(() -> catchThrowable(() ->
                    transport.send(note("x".repeat(512 * 1024), Duration.ofMinutes(2)))));
            // its line is queued once it waits for the write; on a loaded machine that may take a while to happen
            await().atMost(Duration.ofSeconds(30)).until(() -> stuck.getState() == Thread.State.TIMED_WAITING);
            Throwable queued = null;
            // small lines go through until the big one holds the pipe; the first that fails was queued behind it
            for (int i = 0; i < 200 && queued == null; i++) {
                queued = catchThrowable(() -> transport.send(note("small", Duration.ofMillis(200))));
            }
            assertThat(queued).isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("did not begin");
            assertThat(transport.pid()).isPresent();
            assertThat(ProcessHandle.of(transport.pid().orElseThrow()).map(ProcessHandle::isAlive)).contains(true);
            assertThat(stuck.isAlive()).isTrue();
        } finally {
            transport.close();
        }
    }

    @Test
    void everyLineToAChildThatClosedItsStdinFailsAtOnce() throws Exception {
        StdioTransport transport = new StdioTransport(UpstreamEndpoint.Stdio.of("sh", "-c", "exec 0<&-; sleep 600"),
                4 * 1024 * 1024);
        transport.start(event -> { });
        try {
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                Throwable failed = null;
                // the first lines may fit the pipe before the child has closed its end
                for (int tries = 0; tries < 100 && failed == null; tries++) {
                    failed = catchThrowable(() -> transport.send(note("x".repeat(70_000), Duration.ofSeconds(30))));
                }
                assertThat(failed).isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("stopped reading");
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
            }
        } finally {
            transport.close();
        }
    }

    private static Outbound note(String text, Duration timeout) {
        return new Outbound(new Notification("notifications/message", Json.object().put("text", text)), Map.of(), timeout);
    }
}

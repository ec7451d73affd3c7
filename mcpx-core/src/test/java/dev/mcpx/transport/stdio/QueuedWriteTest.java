package dev.mcpx.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A send only queues its line for the child's writer thread, so no sender blocks on a full pipe
 * or waits for the write. A line abandoned before its write began is never written and leaves the
 * child alone; a write that cannot complete by its deadline marks the child as deaf; a closed
 * stdin fails each send at once.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class QueuedWriteTest {

    private final LinkedBlockingQueue<TransportEvent> events = new LinkedBlockingQueue<>();

    @Test
    void aLineAbandonedBehindAStuckWriteIsDroppedWithoutKillingTheChild() throws Exception {
        // sleep never reads its stdin: a line larger than the pipe blocks its write for good
        StdioTransport transport = new StdioTransport(UpstreamEndpoint.Stdio.of("sleep", "600"), 4 * 1024 * 1024);
        transport.start(events::add);
        try {
            transport.send(request(1, "x".repeat(512 * 1024), Duration.ofMinutes(2)));
            transport.send(request(2, "small", Duration.ofMinutes(2)));

            // never written, so the child needs no cancellation for it
            assertThat(transport.abandon(RequestId.of(2))).isTrue();
            assertThat(transport.abandon(RequestId.of(1))).isFalse();
            assertThat(ProcessHandle.of(transport.pid().orElseThrow()).map(ProcessHandle::isAlive)).contains(true);
            assertThat(events).isEmpty();
        } finally {
            transport.close();
        }
    }

    @Test
    void aWriteThatMissesItsDeadlineKillsTheChildAndTheNextSendMayGoAgainElsewhere() throws Exception {
        StdioTransport transport = new StdioTransport(UpstreamEndpoint.Stdio.of("sleep", "600"), 4 * 1024 * 1024);
        transport.start(events::add);
        try {
            long pid = transport.pid().orElseThrow();
            transport.send(request(1, "x".repeat(512 * 1024), Duration.ofSeconds(2)));

            Throwable refused = await().atMost(Duration.ofSeconds(30)).until(
                    () -> catchThrowable(() -> transport.send(note("small", Duration.ofSeconds(30)))), t -> t != null);

            assertThat(refused).isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("stopped reading its stdin");
            assertThat(((UpstreamUnavailableException) refused).unreachable()).isTrue();
            assertThat(next(TransportEvent.Closed.class).cause()).hasMessageContaining("stopped reading its stdin");
            await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        } finally {
            transport.close();
        }
    }

    @Test
    void aRequestWhoseLineIsStillBeingWrittenAsItsTimeRunsOutFailsAsDeaf() throws Exception {
        StdioTransport transport = new StdioTransport(UpstreamEndpoint.Stdio.of("sleep", "600"), 4 * 1024 * 1024);
        transport.start(events::add);
        try {
            transport.send(request(1, "x".repeat(512 * 1024), Duration.ofSeconds(2)));

            // what the caller does when its wait for the answer times out; before its time is up, nothing happens
            Throwable verdict = await().atMost(Duration.ofSeconds(30)).until(
                    () -> catchThrowable(() -> assertThat(transport.abandon(RequestId.of(1))).isFalse()), t -> t != null);

            assertThat(verdict).isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("stopped reading its stdin");
            assertThat(next(TransportEvent.Closed.class).cause()).hasMessageContaining("stopped reading its stdin");
        } finally {
            transport.close();
        }
    }

    @Test
    void everyLineToAChildThatClosedItsStdinFailsAtOnce() throws Exception {
        StdioTransport transport = new StdioTransport(UpstreamEndpoint.Stdio.of("sh", "-c", "exec 0<&-; sleep 600"),
                4 * 1024 * 1024);
        transport.start(events::add);
        try {
            long start = System.nanoTime();
            // more than the pipe holds, so the write fails once the child has closed its end, whenever that is
            transport.send(request(1, "x".repeat(70_000), Duration.ofSeconds(30)));
            TransportEvent failed = events.poll(30, TimeUnit.SECONDS);
            assertThat(failed).isInstanceOfSatisfying(TransportEvent.RequestFailed.class, f -> {
                assertThat(f.id()).isEqualTo(RequestId.of(1));
                assertThat(f.error()).isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("stopped reading");
            });
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
            for (int i = 0; i < 3; i++) {
                assertThat(catchThrowable(() -> transport.send(note("x", Duration.ofSeconds(30)))))
                        .isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("stopped reading");
            }
        } finally {
            transport.close();
        }
    }

    private <T extends TransportEvent> T next(Class<T> kind) throws InterruptedException {
        while (true) {
            TransportEvent event = events.poll(30, TimeUnit.SECONDS);
            assertThat(event).as("a %s event", kind.getSimpleName()).isNotNull();
            if (kind.isInstance(event)) {
                return kind.cast(event);
            }
        }
    }

    private static Outbound request(long id, String text, Duration timeout) {
        return new Outbound(new Request(RequestId.of(id), "tools/call", Json.object().put("text", text)), Map.of(), timeout);
    }

    private static Outbound note(String text, Duration timeout) {
        return new Outbound(new Notification("notifications/message", Json.object().put("text", text)), Map.of(), timeout);
    }
}

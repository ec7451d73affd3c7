package dev.mcpx.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.UpstreamEndpoint;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A sender writes its own line when the child's stdin pipe surely has room for it, and never
 * otherwise: a child that stops reading still blocks only the writer thread.
 */
@EnabledOnOs(OS.LINUX)
class DirectWriteTest {

    @Test
    void whileTheChildAnswersEverySenderWritesItsOwnLine() throws Exception {
        BlockingQueue<TransportEvent> events = new LinkedBlockingQueue<>();
        StdioTransport transport = answeringChild(events);
        try {
            for (int i = 1; i <= 50; i++) {
                transport.send(Outbound.of(new Request(RequestId.of(i), "ping", null)));
                awaitResult(events, RequestId.of(i));
            }
            assertThat(transport.directWrites()).isEqualTo(50);
        } finally {
            transport.close();
        }
    }

    @Test
    void aChildThatNeverReadsGetsAtMostThePipesRoomFromItsSendersAndNoSendHangs() throws Exception {
        // sleep never reads its stdin and never answers
        StdioTransport transport = new StdioTransport(UpstreamEndpoint.Stdio.of("sleep", "600"), 1 << 20);
        transport.start(event -> { });
        try {
            String text = "x".repeat(1000);
            for (int i = 0; i < 200; i++) {
                long start = System.nanoTime();
                Throwable failed = catchThrowable(() -> transport.send(new Outbound(
                        new Notification("notifications/message", Json.object().put("text", text)), Map.of(),
                        Duration.ofMillis(200))));
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
                if (failed != null) {
                    assertThat(failed).isInstanceOf(UpstreamUnavailableException.class);
                    break;
                }
            }
            assertThat(transport.directWrites()).isBetween(1, StdioTransport.PIPE_ROOM / 1000);
        } finally {
            transport.close();
        }
    }

    @Test
    void aLineTheWriterThreadWroteIsNotHeldOnceWritten() throws Exception {
        BlockingQueue<TransportEvent> events = new LinkedBlockingQueue<>();
        StdioTransport transport = answeringChild(events);
        try {
            ping(transport, events, 1, "small");
            long before = liveHeapBytes();
            // far larger than the pipe, so the writer thread writes it; the small one after it is written directly
            ping(transport, events, 2, "x".repeat(48 * 1024 * 1024));
            ping(transport, events, 3, "small");
            assertThat(transport.directWrites()).isEqualTo(2);
            assertThat(liveHeapBytes() - before).as("heap kept after the large line").isLessThan(16L * 1024 * 1024);
        } finally {
            transport.close();
        }
    }

    private static StdioTransport answeringChild(BlockingQueue<TransportEvent> events) {
        List<String> command = StdioFakeServer.command("--era", "legacy");
        StdioTransport transport = new StdioTransport(new UpstreamEndpoint.Stdio(command.getFirst(),
                command.subList(1, command.size()), Map.of(), null, false), 1 << 20);
        transport.start(events::add);
        return transport;
    }

    private static void ping(StdioTransport transport, BlockingQueue<TransportEvent> events, int id, String pad)
            throws InterruptedException {
        transport.send(new Outbound(new Request(RequestId.of(id), "ping", Json.object().put("pad", pad)), Map.of(),
                Duration.ofSeconds(60)));
        awaitResult(events, RequestId.of(id));
    }

    private static long liveHeapBytes() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void awaitResult(BlockingQueue<TransportEvent> events, RequestId id) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            TransportEvent event = events.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (event instanceof TransportEvent.Received received && received.message() instanceof Result result
                    && result.id().equals(id)) {
                return;
            }
            if (event instanceof TransportEvent.Closed closed) {
                throw new AssertionError("the child exited: " + closed);
            }
        }
        throw new AssertionError("no result for " + id + " within 60 s");
    }
}

package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.front.stdio.StdioFront;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * A host that stops reading blocks the threads writing to it; every other host must still be
 * served, and a virtual thread among those writers must wait without pinning a carrier (JDK
 * 21-23 pin a virtual thread that blocks inside {@code synchronized}). The thread dump check fails
 * on JDK 25 too when a writer waits while owning a monitor; the other host's call is what a user on
 * JDK 21 would have seen hang.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SlowHostTest {

    private static final int STUCK_REPLIES = 32;

    private Gateway gateway;

    @BeforeAll
    void startGateway() {
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("fake")), TestGateways.settings(), Map.of());
    }

    @AfterAll
    void stopGateway() {
        gateway.close();
    }

    @Test
    void aStdioHostThatStopsReadingPinsNoCarrierAndOtherHostsAreServed() throws Exception {
        GatedOutput slowHostReads = new GatedOutput();
        Pipe slowHostWrites = Pipe.open();
        OutputStream toFront = Channels.newOutputStream(slowHostWrites.sink());
        StdioFront slowFront = new StdioFront(gateway.hostRequests(), gateway.listChanges(),
                Channels.newInputStream(slowHostWrites.source()), slowHostReads);
        Thread.ofVirtual().start(() -> serve(slowFront));
        writeLine(toFront, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"slow\",\"version\":\"1\"}}}");
        await().atMost(Duration.ofSeconds(30)).until(() -> slowHostReads.text().contains("\"id\":0"));

        slowHostReads.stopReading();
        for (int id = 1; id <= STUCK_REPLIES; id++) {
            writeLine(toFront, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> slowHostReads.blockedWriters() == 1);
        // every reply has a writer waiting: the front's platform threads first, virtual ones past them
        await().atMost(Duration.ofSeconds(30)).until(() -> ThreadDumps.threads().stream()
                .filter(thread -> thread.runs("dev.mcpx.front.stdio.StdioFront.send")).count() >= STUCK_REPLIES);
        assertThat(ThreadDumps.virtualThreads().stream().filter(thread -> thread.runs("dev.mcpx.front.stdio.StdioFront.send")))
                .as("replies beyond the platform threads wait on virtual threads").isNotEmpty();

        assertThat(ThreadDumps.pinnedBy("dev.mcpx.front.")).isEmpty();
        assertThat(echoOverStdio("still served")).isEqualTo("Echo: still served");

        slowHostReads.resumeReading();
        await().atMost(Duration.ofSeconds(30)).until(() -> slowHostReads.text().lines()
                .filter(line -> line.contains("\"result\"")).count() == STUCK_REPLIES + 1);
        toFront.close();
    }

    @Test
    void anHttpHostThatStopsReadingPinsNoCarrierAndOtherHostsAreServed() throws Exception {
        try (HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200))) {
            HttpHost slow = HttpHost.legacy(front.mcpUri());
            slow.initialize();
            String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"fake__huge\",\"arguments\":{\"bytes\":8388608}}}";
            try (Socket socket = new Socket()) {
                socket.setReceiveBufferSize(4096);
                socket.connect(new InetSocketAddress("127.0.0.1", front.port()));
                socket.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n"
                        + "Mcp-Session-Id: " + slow.sessionId() + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                        .getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                // the writer is one of the front's platform threads, or a virtual one past them
                await().atMost(Duration.ofSeconds(60)).until(() -> ThreadDumps.threads().stream()
                        .anyMatch(thread -> thread.waiting() && thread.runs("org.eclipse.jetty.io.Content$Sink.write")
                                && (thread.runs("SseConnection.write") || thread.runs("SseConnection.json"))));

                assertThat(ThreadDumps.pinnedBy("dev.mcpx.front.")).isEmpty();
                HttpHost other = HttpHost.legacy(front.mcpUri());
                other.initialize();
                assertThat(other.request("tools/call", echo("still served")).text()).isEqualTo("Echo: still served");
                assertThat(echoOverStdio("over stdio too")).isEqualTo("Echo: over stdio too");
            }
        }
    }

    private String echoOverStdio(String text) throws Exception {
        Pipe hostToGateway = Pipe.open();
        Pipe gatewayToHost = Pipe.open();
        StdioFront front = new StdioFront(gateway.hostRequests(), gateway.listChanges(),
                Channels.newInputStream(hostToGateway.source()), Channels.newOutputStream(gatewayToHost.sink()));
        Thread.ofVirtual().start(() -> serve(front));
        try (LineHost host = new LineHost(Channels.newInputStream(gatewayToHost.source()),
                Channels.newOutputStream(hostToGateway.sink()))) {
            ObjectNode params = Json.object().put("protocolVersion", "2025-11-25");
            params.putObject("capabilities");
            params.putObject("clientInfo").put("name", "other").put("version", "1");
            host.request("initialize", params);
            host.notify("notifications/initialized", null);
            await().atMost(Duration.ofSeconds(30)).until(() -> host.request("tools/list", null).toString().contains("fake__echo"));
            return host.request("tools/call", echo(text)).path("result").path("content").path(0).path("text").asString();
        }
    }

    private static ObjectNode echo(String text) {
        ObjectNode params = Json.object().put("name", "fake__echo");
        params.putObject("arguments").put("text", text);
        return params;
    }

    private static void serve(StdioFront front) {
        try {
            front.run();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void writeLine(OutputStream out, String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** A host's stdin as the front sees it: once the host stops reading, every write waits until it reads again. */
    private static final class GatedOutput extends OutputStream {

        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private final AtomicInteger blocked = new AtomicInteger();
        private volatile CountDownLatch reading = new CountDownLatch(0);

        void stopReading() {
            reading = new CountDownLatch(1);
        }

        void resumeReading() {
            reading.countDown();
        }

        int blockedWriters() {
            return blocked.get();
        }

        String text() {
            synchronized (received) {
                return received.toString(StandardCharsets.UTF_8);
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            blocked.incrementAndGet();
            try {
                reading.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            } finally {
                blocked.decrementAndGet();
            }
            synchronized (received) {
                received.write(bytes, offset, length);
            }
        }
    }
}

package dev.mcpx.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.ModernMeta;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Upstreams share one Jetty client for their POSTs and, on plain http, one JDK client for their
 * legacy streams (the selectors, schedulers and threads), yet each keeps its own connections,
 * headers, session and cookies, one that never answers delays no other, and closing one leaves
 * the others working.
 */
class SharedHttpClientsTest {

    private static final ModernMeta META = ModernMeta.of(ProtocolVersion.V2026_07_28, "mcpx-test", "1.0", Json.object());

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing.reversed()) {
            c.close();
        }
    }

    @Test
    void upstreamsShareOneClientButEachSendsOnlyItsOwnHeaders() throws Exception {
        LoopbackUpstream first = track(LoopbackUpstream.start());
        LoopbackUpstream second = track(LoopbackUpstream.start());
        PostClient toFirst = new PostClient(Duration.ofSeconds(10));
        PostClient toSecond = new PostClient(Duration.ofSeconds(10));

        assertThat(toFirst.sharedClient()).isSameAs(toSecond.sharedClient());
        Upstream a = track(new Upstream(first, Map.of("Authorization", "Bearer first")));
        Upstream b = track(new Upstream(second, Map.of("Authorization", "Bearer second")));
        a.call(1);
        b.call(2);
        assertThat(first.requests()).extracting(r -> r.headers().get("authorization")).containsOnly("Bearer first");
        assertThat(second.requests()).extracting(r -> r.headers().get("authorization")).containsOnly("Bearer second");
    }

    @Test
    void aCookieOneUpstreamSetsReachesNoOtherOnTheSameHost() throws Exception {
        LoopbackUpstream setter = track(LoopbackUpstream.start());
        setter.setCookie("session=first-upstreams-secret");
        LoopbackUpstream other = track(LoopbackUpstream.start());
        Upstream a = track(new Upstream(setter, Map.of()));
        Upstream b = track(new Upstream(other, Map.of()));

        a.call(1);
        b.call(2);
        a.call(3);
        // cookies ignore the port: a shared cookie store would hand 127.0.0.1's cookie to both
        assertThat(other.requests()).allSatisfy(r -> assertThat(r.headers()).doesNotContainKey("cookie"));
        assertThat(setter.requests()).allSatisfy(r -> assertThat(r.headers()).doesNotContainKey("cookie"));
    }

    @Test
    void anUpstreamThatNeverAnswersDelaysNoOther() throws Exception {
        LoopbackUpstream stalled = track(LoopbackUpstream.start());
        stalled.stall();
        LoopbackUpstream quick = track(LoopbackUpstream.start());
        Upstream a = track(new Upstream(stalled, Map.of()));
        Upstream b = track(new Upstream(quick, Map.of()));

        for (int i = 0; i < 64; i++) {
            a.send(i);
        }
        stalled.awaitRequests(64);
        for (int i = 100; i < 110; i++) {
            b.call(i);
        }
        assertThat(a.events).isEmpty();
    }

    @Test
    void twoUpstreamsOnOneServerKeepTheirOwnConnectionsAndClosingOneEndsOnlyItsOwn() throws Exception {
        LoopbackUpstream server = track(LoopbackUpstream.start());
        Upstream a = new Upstream(server, Map.of());
        Upstream b = track(new Upstream(server, Map.of()));

        a.call(1);
        b.call(2);
        a.call(3);
        b.call(4);
        List<Integer> connections = server.requests().stream().map(LoopbackRequest::connection).toList();
        assertThat(connections.get(0)).isNotEqualTo(connections.get(1));
        assertThat(connections.get(2)).isEqualTo(connections.get(0));
        assertThat(connections.get(3)).isEqualTo(connections.get(1));

        a.close();
        assertThat(server.awaitClosed()).isEqualTo(connections.get(0));
        b.call(5);
        assertThat(server.requests().getLast().connection()).isEqualTo(connections.get(1));
        assertThat(server.closed()).containsExactly(connections.get(0));
    }

    @Test
    void closingOneLegacyUpstreamLeavesAnothersSessionAndListenStreamOnTheSharedClientWorking() {
        LegacyHttpUpstream first = track(LegacyHttpUpstream.started());
        LegacyHttpUpstream second = track(LegacyHttpUpstream.started());
        RecordedEvents firstEvents = new RecordedEvents();
        RecordedEvents secondEvents = new RecordedEvents();
        LegacyHttpTransport toFirst = legacy(first, firstEvents);
        LegacyHttpTransport toSecond = track(legacy(second, secondEvents));
        assertThat(toFirst.streamClient()).isSameAs(toSecond.streamClient());
        String firstSession = handshake(toFirst, firstEvents, 1);
        String secondSession = handshake(toSecond, secondEvents, 2);
        assertThat(firstSession).isNotEqualTo(secondSession);
        awaitListenStream(first);
        awaitListenStream(second);

        toFirst.close();
        second.notifyToolsListChanged();

        secondEvents.await(e -> e instanceof TransportEvent.Received r && r.message() instanceof Notification n
                && n.method().equals("notifications/tools/list_changed"), Duration.ofSeconds(5), "list_changed");
        assertThat(first.liveSessions()).doesNotContain(firstSession);
        assertThat(second.liveSessions()).contains(secondSession);
        assertThat(second.sessionIdsSeen()).doesNotContain(firstSession);
    }

    private static LegacyHttpTransport legacy(LegacyHttpUpstream upstream, RecordedEvents events) {
        LegacyHttpTransport transport = new LegacyHttpTransport(new UpstreamEndpoint.Http(upstream.url(), Map.of(),
                UpstreamEndpoint.HttpKind.STREAMABLE), LegacyHttpOptions.defaults());
        transport.start(events);
        return transport;
    }

    private static String handshake(LegacyHttpTransport transport, RecordedEvents events, long id) {
        ObjectNode params = Json.object();
        params.put("protocolVersion", "2025-11-25");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "test").put("version", "1");
        transport.send(Outbound.of(new Request(RequestId.of(id), "initialize", params)));
        assertThat(events.result(RequestId.of(id)).result().path("protocolVersion").asString()).isEqualTo("2025-11-25");
        transport.handshakeCompleted(ProtocolVersion.V2025_11_25);
        transport.send(Outbound.of(new Notification("notifications/initialized", null)));
        transport.sessionReady(Duration.ofSeconds(10));
        return transport.sessionId().orElseThrow();
    }

    private static void awaitListenStream(LegacyHttpUpstream upstream) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (upstream.openListenStreams() < 1) {
            assertThat(System.nanoTime()).as("a listen stream within 5 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private <T extends AutoCloseable> T track(T closeable) {
        closing.add(closeable);
        return closeable;
    }

    /** A modern transport to {@code upstream} and the events it reports. */
    private static final class Upstream implements AutoCloseable {
        final BlockingQueue<TransportEvent> events = new LinkedBlockingQueue<>();
        final ModernHttpTransport transport;

        Upstream(LoopbackUpstream upstream, Map<String, String> headers) {
            transport = new ModernHttpTransport(new UpstreamEndpoint.Http(upstream.url(), headers,
                    UpstreamEndpoint.HttpKind.STREAMABLE));
            transport.start(events::add);
        }

        void send(long id) {
            transport.send(Outbound.of(new Request(RequestId.of(id), "tools/list", META.applyTo(null))));
        }

        void call(long id) throws InterruptedException {
            send(id);
            TransportEvent event = events.poll(5, TimeUnit.SECONDS);
            assertThat(event).as("an answer to " + id + " within 5 s").isInstanceOfSatisfying(TransportEvent.Received.class,
                    received -> assertThat(received.message()).isInstanceOfSatisfying(Result.class,
                            result -> assertThat(result.id()).isEqualTo(RequestId.of(id))));
        }

        @Override
        public void close() {
            transport.close();
        }
    }

    record LoopbackRequest(int connection, Map<String, String> headers) {
    }

    /**
     * HTTP/1.1 on a loopback socket, written out by hand so a test sees each connection: it
     * answers every POST with an empty JSON-RPC result on the connection it came on.
     */
    private static final class LoopbackUpstream implements AutoCloseable {
        private final ServerSocket socket;
        private final List<LoopbackRequest> requests = new CopyOnWriteArrayList<>();
        private final BlockingQueue<Integer> closedQueue = new LinkedBlockingQueue<>();
        private final List<Integer> closed = new CopyOnWriteArrayList<>();
        private final Map<Integer, Socket> open = new ConcurrentHashMap<>();
        private final AtomicInteger connections = new AtomicInteger();
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile String cookie;
        private volatile boolean stalled;

        private LoopbackUpstream(ServerSocket socket) {
            this.socket = socket;
            Thread.ofVirtual().start(this::accept);
        }

        static LoopbackUpstream start() throws IOException {
            return new LoopbackUpstream(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/mcp");
        }

        void setCookie(String value) {
            cookie = value;
        }

        void stall() {
            stalled = true;
        }

        List<LoopbackRequest> requests() {
            return List.copyOf(requests);
        }

        List<Integer> closed() {
            return List.copyOf(closed);
        }

        int awaitClosed() throws InterruptedException {
            Integer connection = closedQueue.poll(5, TimeUnit.SECONDS);
            assertThat(connection).as("a connection closed within 5 s").isNotNull();
            return connection;
        }

        void awaitRequests(int count) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            synchronized (requests) {
                while (requests.size() < count && System.nanoTime() < deadline) {
                    requests.wait(100);
                }
            }
            assertThat(requests).hasSizeGreaterThanOrEqualTo(count);
        }

        private void accept() {
            try {
                while (true) {
                    Socket connection = socket.accept();
                    int id = connections.incrementAndGet();
                    open.put(id, connection);
                    Thread.ofVirtual().start(() -> serve(id, connection));
                }
            } catch (IOException e) {
                // closed by the test
            }
        }

        private void serve(int id, Socket connection) {
            try (connection; InputStream in = connection.getInputStream(); OutputStream out = connection.getOutputStream()) {
                Map<String, String> headers;
                while ((headers = readHead(in)) != null) {
                    byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
                    requests.add(new LoopbackRequest(id, headers));
                    synchronized (requests) {
                        requests.notifyAll();
                    }
                    if (stalled) {
                        released.await();
                        return;
                    }
                    JsonRpcMessage.Request request = (JsonRpcMessage.Request) new dev.mcpx.protocol.JsonRpcCodec(1 << 20)
                            .decode(new String(body, StandardCharsets.UTF_8));
                    byte[] answer = ("{\"jsonrpc\":\"2.0\",\"id\":" + request.id() + ",\"result\":{\"tools\":[]}}")
                            .getBytes(StandardCharsets.UTF_8);
                    String head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + answer.length + "\r\n"
                            + (cookie == null ? "" : "Set-Cookie: " + cookie + "; Path=/\r\n") + "\r\n";
                    out.write(head.getBytes(StandardCharsets.US_ASCII));
                    out.write(answer);
                    out.flush();
                }
                closed.add(id);
                closedQueue.add(id);
            } catch (IOException e) {
                closed.add(id);
                closedQueue.add(id);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** The request's headers, names in lower case; null at the end of the connection. */
        private static Map<String, String> readHead(InputStream in) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            List<String> lines = new ArrayList<>();
            int b;
            while ((b = in.read()) != -1) {
                if (b == '\n') {
                    String text = line.toString(StandardCharsets.ISO_8859_1).stripTrailing();
                    line.reset();
                    if (text.isEmpty()) {
                        Map<String, String> headers = new ConcurrentHashMap<>();
                        for (String header : lines.subList(1, lines.size())) {
                            int colon = header.indexOf(':');
                            headers.put(header.substring(0, colon).strip().toLowerCase(Locale.ROOT), header.substring(colon + 1).strip());
                        }
                        return headers;
                    }
                    lines.add(text);
                } else {
                    line.write(b);
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            released.countDown();
            socket.close();
            for (Socket connection : open.values()) {
                connection.close();
            }
        }
    }
}

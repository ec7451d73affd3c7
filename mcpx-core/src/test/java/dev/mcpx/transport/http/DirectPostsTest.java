package dev.mcpx.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Request POSTs whose answers their sender reads ({@link DirectPosts}), against a scripted
 * HTTP/1.1 server on a raw socket: kept-alive connections, connections the server closed, bodies
 * that come slowly or in pieces, redirects, and a sender that stops waiting.
 */
class DirectPostsTest {

    private final RecordedEvents events = new RecordedEvents();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final List<String> targets = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    /** Sockets whose close returned: {@link Socket#isClosed} turns true before the FIN is sent. */
    private final Set<Socket> closeReturned = ConcurrentHashMap.newKeySet();
    private ServerSocket server;
    private Transport transport;

    @AfterEach
    void stopAll() throws IOException {
        if (transport != null) {
            transport.close();
        }
        if (server != null) {
            server.close();
        }
        for (Socket socket : open) {
            socket.close();
        }
    }

    /** What the server does with one request: write the answer; return false to close the connection. */
    private interface Script {
        boolean answer(int request, String target, String body, OutputStream out) throws IOException;
    }

    private Transport serve(Script script) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    open.add(socket);
                    connections.incrementAndGet();
                    Thread.ofVirtual().start(() -> converse(socket, script));
                } catch (IOException e) {
                    return;
                }
            }
        });
        return connect(server.getLocalPort());
    }

    private Transport connect(int port) {
        URI url = URI.create("http://127.0.0.1:" + port + "/mcp");
        transport = LegacyHttpTransports.streamable(new UpstreamEndpoint.Http(url, Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE));
        transport.start(events);
        return transport;
    }

    private void converse(Socket socket, Script script) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                String target = head.split(" ")[1];
                int length = 0;
                for (String line : head.split("\r\n")) {
                    if (line.toLowerCase().startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(15).trim());
                    }
                }
                String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                targets.add(target);
                if (!script.answer(requests.incrementAndGet(), target, body, out)) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went
        } finally {
            closeReturned.add(socket);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] sofar = head.toByteArray();
            int n = sofar.length;
            if (n >= 4 && sofar[n - 4] == '\r' && sofar[n - 3] == '\n' && sofar[n - 2] == '\r' && sofar[n - 1] == '\n') {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    private static void json(OutputStream out, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.flush();
    }

    private static String resultFor(String requestBody) {
        int at = requestBody.indexOf("\"id\":") + 5;
        int end = requestBody.indexOf(',', at);
        return "{\"jsonrpc\":\"2.0\",\"id\":" + requestBody.substring(at, end) + ",\"result\":{}}";
    }

    /** Sends {@code id} as the client does and collects its answer on this thread. */
    private void call(long id, Duration within) {
        transport.send(new Outbound(new Request(RequestId.of(id), "ping", null), Map.of(), null, true));
        transport.collect(RequestId.of(id), within);
    }

    @Test
    void callsInTurnShareOneKeptAliveConnection() throws IOException {
        serve((n, target, body, out) -> {
            json(out, resultFor(body));
            return true;
        });

        for (long id = 1; id <= 5; id++) {
            call(id, Duration.ofSeconds(10));
            events.result(RequestId.of(id));
        }

        assertThat(connections).hasValue(1);
        assertThat(requests).hasValue(5);
    }

    /** As servers do after their keep-alive timeout, or when they restart: the request must not be lost on the dead connection. */
    @Test
    void aConnectionTheServerClosedWhileIdleIsNotUsedAndTheRequestIsSentOnce() throws IOException, InterruptedException {
        CountDownLatch closedByServer = new CountDownLatch(1);
        serve((n, target, body, out) -> {
            json(out, resultFor(body));
            if (n == 1) {
                closedByServer.countDown();
                return false;
            }
            return true;
        });
        call(1, Duration.ofSeconds(10));
        events.result(RequestId.of(1));
        assertThat(closedByServer.await(10, TimeUnit.SECONDS)).isTrue();
        awaitClosedByPeer();

        call(2, Duration.ofSeconds(10));

        events.result(RequestId.of(2));
        assertThat(requests).hasValue(2);
        assertThat(connections).hasValue(2);
        assertThat(events.all()).noneMatch(e -> e instanceof TransportEvent.RequestFailed);
    }

    /** The server's close reaches the client's socket only after its FIN crosses loopback: wait until the server's side is gone. */
    private void awaitClosedByPeer() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!closeReturned.containsAll(open) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(closeReturned).containsAll(open);
    }

    /** Jetty's server, for one, sends a chunk's closing CR LF only with the next chunk. */
    @Test
    void anEventStreamChunkIsDeliveredBeforeTheServerSendsItsClosingCrLf() throws IOException {
        CountDownLatch done = new CountDownLatch(1);
        serve((n, target, body, out) -> {
            String event = "id: 1\ndata: " + resultFor(body) + "\n\n";
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + Integer.toHexString(event.length()) + "\r\n" + event).getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            try {
                done.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        });

        call(1, Duration.ofSeconds(10));

        events.result(RequestId.of(1));
        done.countDown();
    }

    @Test
    void aChunkedJsonAnswerIsReadWholeAndItsConnectionKept() throws IOException {
        serve((n, target, body, out) -> {
            String answer = resultFor(body);
            int half = answer.length() / 2;
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + Integer.toHexString(half) + ";ext=1\r\n" + answer.substring(0, half) + "\r\n"
                    + Integer.toHexString(answer.length() - half) + "\r\n" + answer.substring(half) + "\r\n0\r\nX-Trailer: t\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return true;
        });

        call(1, Duration.ofSeconds(10));
        call(2, Duration.ofSeconds(10));

        events.result(RequestId.of(1));
        events.result(RequestId.of(2));
        assertThat(connections).hasValue(1);
    }

    /** A server that sends its answer a byte at a time must not hold the sender past the request's deadline. */
    @Test
    void aBodyThatTricklesPastTheDeadlineEndsTheCollectAtTheDeadline() throws IOException {
        serve((n, target, body, out) -> {
            out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            for (int i = 0; i < 100_000; i++) {
                out.write(' ');
                out.flush();
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return false;
                }
            }
            return false;
        });

        long start = System.nanoTime();
        call(1, Duration.ofMillis(500));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(tookMillis).isLessThan(5_000);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void anAbandonEndsACollectWaitingForAnAnswerThatNeverComes() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        serve((n, target, body, out) -> {
            received.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        });
        transport.send(new Outbound(new Request(RequestId.of(1), "ping", null), Map.of(), null, true));
        Thread collector = Thread.ofVirtual().start(() -> transport.collect(RequestId.of(1), Duration.ofSeconds(60)));
        assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();

        transport.abandon(RequestId.of(1));

        assertThat(collector.join(Duration.ofSeconds(10))).isTrue();
        assertThat(events.all()).isEmpty();
    }

    /** Python servers answer /mcp with 307 to /mcp/: the request goes again, through Jetty's client, which follows it. */
    @Test
    void aRedirectIsFollowedAndTheRequestAnswered() throws IOException {
        serve((n, target, body, out) -> {
            if (target.equals("/mcp")) {
                out.write("HTTP/1.1 307 Temporary Redirect\r\nLocation: /mcp/\r\nContent-Length: 0\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                return true;
            }
            json(out, resultFor(body));
            return true;
        });

        call(1, Duration.ofSeconds(10));

        events.result(RequestId.of(1));
        // the redirect refused the request unread; Jetty's client sends it again and follows
        assertThat(targets).containsExactly("/mcp", "/mcp", "/mcp/");
    }

    @Test
    void aServerThatIsNotThereFailsTheRequestAsUnreachable() throws IOException {
        int port;
        // closed with nothing blocked in accept: a listening socket closed under a blocked accept can still take a connect
        try (ServerSocket gone = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            port = gone.getLocalPort();
        }
        connect(port);

        call(1, Duration.ofSeconds(10));

        assertThat(events.failure(RequestId.of(1))).isInstanceOf(dev.mcpx.protocol.UpstreamUnavailableException.class)
                .hasMessageContaining("cannot connect");
    }
}

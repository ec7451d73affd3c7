package dev.mcpx.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How the legacy transport reads the odd answers real servers give, from a scripted server. */
class LegacyHttpAnswersTest {

    /** The transport under test as a test drives it; {@link SenderCollectsTests} drives it as the client does. */
    Transport wrap(Transport transport) {
        return transport;
    }

    private final RecordedEvents events = new RecordedEvents();
    private final List<String> methodsSeen = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private Transport transport;

    @AfterEach
    void stopAll() {
        if (transport != null) {
            transport.close();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    private interface Answer {
        void answer(HttpExchange exchange) throws IOException;
    }

    private Transport serve(Answer answer) throws IOException {
        return serve(answer, LegacyHttpOptions.defaults());
    }

    private Transport serve(Answer answer, LegacyHttpOptions options) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/mcp", exchange -> {
            methodsSeen.add(exchange.getRequestMethod());
            exchange.getRequestBody().readAllBytes();
            answer.answer(exchange);
            exchange.close();
        });
        server.start();
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
        transport = wrap(LegacyHttpTransports.streamable(new UpstreamEndpoint.Http(url, Map.of(),
                UpstreamEndpoint.HttpKind.STREAMABLE), options));
        transport.start(events);
        return transport;
    }

    private static void reply(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (type != null) {
            exchange.getResponseHeaders().add("Content-Type", type);
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static Request ping(long id) {
        return new Request(RequestId.of(id), "ping", null);
    }

    @Test
    void aJsonRpcErrorBodyNamingTheRequestIsThatRequestsError() throws IOException {
        serve(exchange -> reply(exchange, 400, "application/json",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":-32602,\"message\":\"bad params\"}}"));
        transport.send(Outbound.of(ping(5)));

        JsonRpcMessage response = events.response(RequestId.of(5));
        assertThat(response).isInstanceOfSatisfying(JsonRpcMessage.ErrorResponse.class,
                e -> assertThat(e.error().message()).isEqualTo("bad params"));
    }

    @Test
    void anyOtherRefusalIsHttpStatusWithTheBody() throws IOException {
        serve(exchange -> reply(exchange, 503, "text/plain", "down for maintenance"));
        assertThat(sendAndCatch(ping(1)))
                .isInstanceOfSatisfying(HttpStatusException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.body()).isEqualTo("down for maintenance");
                });
    }

    @Test
    void aRefusalWithoutAnMcpErrorSuggestsTheOldHttpSseTransport() throws IOException {
        serve(exchange -> reply(exchange, 405, "text/plain", "Method Not Allowed"));
        McpException failure = sendAndCatch(ping(1));
        assertThat(failure).isInstanceOf(HttpStatusException.class);
        assertThat(LegacyHttpTransports.suggestsHttpSse(failure)).isTrue();
    }

    @Test
    void aRefusalCarryingAJsonRpcErrorIsAnMcpServerNotAnOldOne() throws IOException {
        serve(exchange -> reply(exchange, 400, "application/json",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Bad Request: Server not initialized\"}}"));
        McpException failure = sendAndCatch(ping(1));
        assertThat(failure).isInstanceOf(HttpStatusException.class);
        assertThat(LegacyHttpTransports.suggestsHttpSse(failure)).isFalse();
    }

    @Test
    void a404BeforeAnySessionIsAPlainHttpStatusNotSessionExpiry() throws IOException {
        serve(exchange -> reply(exchange, 404, "text/plain", "Not Found"));
        McpException failure = sendAndCatch(ping(1));
        assertThat(failure).isInstanceOfSatisfying(HttpStatusException.class, e -> assertThat(e.status()).isEqualTo(404));
        assertThat(LegacyHttpTransports.suggestsHttpSse(failure)).isTrue();
    }

    @Test
    void aRequestAcceptedWithoutABodyFailsWithStreamLost() throws IOException {
        serve(exchange -> reply(exchange, 202, null, ""));
        transport.send(Outbound.of(ping(9)));
        TransportEvent.RequestFailed failed = events.await(TransportEvent.RequestFailed.class, Duration.ofSeconds(5));
        assertThat(failed.id()).isEqualTo(RequestId.of(9));
        assertThat(failed.error()).isInstanceOf(StreamLostException.class);
    }

    @Test
    void aStreamWithoutEventIdsThatEndsEarlyFailsAtOnceWithoutResuming() throws IOException {
        serve(exchange -> reply(exchange, 200, "text/event-stream",
                "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n"));
        transport.send(Outbound.of(ping(3)));
        TransportEvent.RequestFailed failed = events.await(TransportEvent.RequestFailed.class, Duration.ofSeconds(5));
        assertThat(failed.error()).isInstanceOf(StreamLostException.class).hasMessageContaining("no event id");
        assertThat(events.messages()).hasSize(1);
        assertThat(methodsSeen).containsExactly("POST");
    }

    @Test
    void anEventOverTheSizeLimitFailsTheRequest() throws IOException {
        serve(exchange -> reply(exchange, 200, "text/event-stream",
                "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"big\":\"" + "x".repeat(4000) + "\"}}\n\n"),
                LegacyHttpOptions.defaults().withMaxEventBytes(1000));
        transport.send(Outbound.of(ping(4)));
        TransportEvent.RequestFailed failed = events.await(TransportEvent.RequestFailed.class, Duration.ofSeconds(5));
        assertThat(failed.error()).isInstanceOf(StreamLostException.class).hasMessageContaining("size limit");
    }

    @Test
    void somethingThatIsNotJsonRpcIsReportedAndTheStreamGoesOn() throws IOException {
        serve(exchange -> reply(exchange, 200, "text/event-stream",
                "id: 1\ndata: not json\n\nid: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}\n\n"));
        transport.send(Outbound.of(ping(6)));
        events.result(RequestId.of(6));
        assertThat(events.all()).anyMatch(e -> e instanceof TransportEvent.Undecodable u && u.excerpt().equals("not json"));
    }

    @Test
    void aJsonBodyThatIsNotTheResponseFailsTheRequestRatherThanLeavingItHanging() throws IOException {
        serve(exchange -> reply(exchange, 200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}"));
        transport.send(Outbound.of(ping(8)));
        TransportEvent.RequestFailed failed = events.await(TransportEvent.RequestFailed.class, Duration.ofSeconds(5));
        assertThat(failed.id()).isEqualTo(RequestId.of(8));
        assertThat(failed.error()).isInstanceOf(StreamLostException.class);
    }

    @Test
    void aConfiguredHeaderTheHttpClientRefusesFailsAtConstruction() {
        assertThatThrownBy(() -> LegacyHttpTransports.streamable(new UpstreamEndpoint.Http(URI.create("http://127.0.0.1:9/mcp"),
                Map.of("Host", "elsewhere"), UpstreamEndpoint.HttpKind.STREAMABLE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Host");
    }

    /** The upstream read the request and closed the connection without a status line: it may have run it. */
    @Test
    void aPostThatGetsNoResponseByteIsAStreamLossWithNoResponse() throws IOException {
        serve(exchange -> { });

        McpException failure = sendAndCatch(ping(11));

        assertThat(failure).isInstanceOfSatisfying(StreamLostException.class, lost -> {
            assertThat(lost.noResponse()).isTrue();
            assertThat(lost.requestId()).isEqualTo(RequestId.of(11));
        }).hasMessageContaining("no response to ping");
    }

    @Test
    void aNotificationThatGetsNoResponseByteFailsTheSendAsAStreamLossWithNoResponse() throws IOException {
        serve(exchange -> { });

        assertThatThrownBy(() -> transport.send(Outbound.of(new JsonRpcMessage.Notification("notifications/initialized", null))))
                .isInstanceOfSatisfying(StreamLostException.class, lost -> assertThat(lost.noResponse()).isTrue())
                .hasMessageContaining("no response to notifications/initialized");
    }

    @Test
    void aJsonBodyThatComesInManyPiecesArrivesWhole() throws IOException {
        String big = "x".repeat(300_000);
        serve(exchange -> {
            byte[] bytes = ("{\"jsonrpc\":\"2.0\",\"id\":12,\"result\":{\"big\":\"" + big + "\"}}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int at = 0; at < bytes.length; at += 1000) {
                    out.write(bytes, at, Math.min(1000, bytes.length - at));
                    out.flush();
                }
            }
        });
        transport.send(Outbound.of(ping(12)));

        assertThat(events.response(RequestId.of(12))).isInstanceOfSatisfying(JsonRpcMessage.Result.class,
                r -> assertThat(r.result().path("big").asString()).isEqualTo(big));
    }

    @Test
    void aJsonBodyOverTheMessageLimitFailsItsRequestAndTheNextOneIsAnswered() throws IOException {
        AtomicInteger posts = new AtomicInteger();
        serve(exchange -> {
            String filler = posts.incrementAndGet() == 1 ? "x".repeat(5_000) : "";
            reply(exchange, 200, "application/json",
                    "{\"jsonrpc\":\"2.0\",\"id\":" + (12 + posts.get()) + ",\"result\":{\"big\":\"" + filler + "\"}}");
        }, LegacyHttpOptions.defaults().withLimits(1000, 1000));

        assertThat(sendAndCatch(ping(13))).isInstanceOf(StreamLostException.class).hasMessageContaining("exceeds the limit");
        transport.send(Outbound.of(ping(14)));
        assertThat(events.response(RequestId.of(14))).isInstanceOf(JsonRpcMessage.Result.class);
    }

    @Test
    void aLongRefusalBodyIsKeptToItsFirst16KiB() throws IOException {
        serve(exchange -> reply(exchange, 500, "text/plain", "y".repeat(100_000)));

        assertThat(sendAndCatch(ping(15))).isInstanceOfSatisfying(HttpStatusException.class, e -> {
            assertThat(e.status()).isEqualTo(500);
            assertThat(e.body()).hasSize(ResponseBodies.ERROR_BODY_LIMIT);
        });
    }

    @Test
    void aWhitespaceOnlyBodyFailsWithStreamLost() throws IOException {
        serve(exchange -> reply(exchange, 200, "application/json", " \r\n\t "));

        assertThat(sendAndCatch(ping(16))).isInstanceOf(StreamLostException.class)
                .hasMessageContaining("without a response body");
    }

    @Test
    void aResultInUtf8ArrivesAsItsText() throws IOException {
        String text = "h\u00e9llo \u2713 \u65e5\u672c \ud83d\ude00";
        serve(exchange -> reply(exchange, 200, "application/json",
                "{\"jsonrpc\":\"2.0\",\"id\":17,\"result\":{\"text\":\"" + text + "\"}}"));
        transport.send(Outbound.of(ping(17)));

        assertThat(events.response(RequestId.of(17))).isInstanceOfSatisfying(JsonRpcMessage.Result.class,
                r -> assertThat(r.result().path("text").asString()).isEqualTo(text));
    }

    @Test
    void malformedUtf8InAResultIsReadAsReplacementCharacters() throws IOException {
        serve(exchange -> {
            byte[] head = "{\"jsonrpc\":\"2.0\",\"id\":18,\"result\":{\"text\":\"a".getBytes(StandardCharsets.UTF_8);
            byte[] tail = "b\"}}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, head.length + 1 + tail.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(head);
                out.write(0xff);
                out.write(tail);
            }
        });
        transport.send(Outbound.of(ping(18)));

        assertThat(events.response(RequestId.of(18))).isInstanceOfSatisfying(JsonRpcMessage.Result.class,
                r -> assertThat(r.result().path("text").asString()).isEqualTo("a\ufffdb"));
    }

    /** Sends {@code request}: its send returns at once, and its failure arrives as an event. */
    private McpException sendAndCatch(Request request) {
        transport.send(Outbound.of(request));
        return events.failure(request.id());
    }
}

package dev.mcpx.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.ModernMeta;
import dev.mcpx.protocol.ParamHeaders;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.testkit.modern.BreakMode;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.testkit.modern.RecordedRequest;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.TransportEvent.Received;
import dev.mcpx.transport.TransportEvent.RequestFailed;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ModernHttpTransportTest {

    /** The transport under test as a test drives it; {@link SenderCollectsTests} drives it as the client does. */
    Transport wrap(Transport transport) {
        return transport;
    }

    private static final ModernMeta META = ModernMeta.of(ProtocolVersion.V2026_07_28, "mcpx-test", "1.0", Json.object());

    private final BlockingQueue<TransportEvent> events = new LinkedBlockingQueue<>();
    private ModernHttpUpstream upstream;
    private Transport transport;
    private int expectedMismatches;

    @BeforeEach
    void start() {
        upstream = ModernHttpUpstream.start();
        transport = wrap(transportTo(upstream, JsonRpcMessageLimit.DEFAULT));
        transport.start(events::add);
    }

    @AfterEach
    void stop() {
        transport.close();
        upstream.close();
        assertThat(upstream.violations()).as("GET, DELETE, session or resume headers, bad Accept").isEmpty();
        assertThat(upstream.requests()).allMatch(r -> r.httpMethod().equals("POST"));
        assertThat(upstream.headerMismatches()).as(upstream.mismatchReasons().toString()).isEqualTo(expectedMismatches);
    }

    private enum JsonRpcMessageLimit { DEFAULT, TINY }

    private static ModernHttpTransport transportTo(ModernHttpUpstream upstream, JsonRpcMessageLimit limit) {
        UpstreamEndpoint.Http endpoint = new UpstreamEndpoint.Http(upstream.url(), Map.of("Authorization", "Bearer test-token"),
                UpstreamEndpoint.HttpKind.STREAMABLE);
        return limit == JsonRpcMessageLimit.DEFAULT ? new ModernHttpTransport(endpoint)
                : new ModernHttpTransport(endpoint, 300);
    }

    private static Request request(long id, String method, String paramsJson) {
        ObjectNode params = paramsJson == null ? null : (ObjectNode) Json.parse(paramsJson.replace('\'', '"'));
        return new Request(RequestId.of(id), method, META.applyTo(params));
    }

    private TransportEvent next() throws InterruptedException {
        TransportEvent event = events.poll(5, TimeUnit.SECONDS);
        assertThat(event).as("an event within 5 s").isNotNull();
        return event;
    }

    private JsonRpcMessage nextMessage() throws InterruptedException {
        TransportEvent event = next();
        assertThat(event).isInstanceOf(Received.class);
        return ((Received) event).message();
    }

    private RecordedRequest lastRequest() {
        return upstream.requests().getLast();
    }

    @Test
    void aToolCallOverSseCarriesHeadersThatAgreeWithTheBody() throws Exception {
        transport.send(Outbound.of(request(1, "tools/call", "{'name': 'read_only_tool', 'arguments': {'text': 'hi'}}")));

        JsonRpcMessage reply = nextMessage();
        assertThat(reply).isInstanceOf(Result.class);
        assertThat(((Result) reply).id()).isEqualTo(RequestId.of(1));
        assertThat(((Result) reply).result().path("content").get(0).path("text").asString()).isEqualTo("read_only_tool execution 1");
        RecordedRequest sent = lastRequest();
        assertThat(sent.header("MCP-Protocol-Version")).isEqualTo("2026-07-28");
        assertThat(sent.header("Mcp-Method")).isEqualTo("tools/call");
        assertThat(sent.header("Mcp-Name")).isEqualTo("read_only_tool");
        assertThat(sent.header("Accept")).contains("application/json", "text/event-stream");
        assertThat(sent.header("Authorization")).isEqualTo("Bearer test-token");
        assertThat(sent.header("Mcp-Session-Id")).isNull();
        assertThat(upstream.executions("read_only_tool")).isEqualTo(1);
    }

    @Test
    void aJsonResponseArrivesWithItsCachingHints() throws Exception {
        transport.send(Outbound.of(request(2, "tools/list", null)));

        Result reply = (Result) nextMessage();
        assertThat(reply.result().path("tools").size()).isGreaterThan(4);
        assertThat(reply.result().path("ttlMs").asLong()).isEqualTo(60_000);
        assertThat(reply.result().path("cacheScope").asString()).isEqualTo("public");
    }

    @Test
    void notificationsOnTheResponseStreamArriveBeforeTheResponse() throws Exception {
        Request call = request(3, "tools/call", "{'name': 'plain_tool', 'arguments': {}, '_meta': {'progressToken': 'p-3'}}");
        transport.send(Outbound.of(call));

        assertThat(nextMessage()).isInstanceOfSatisfying(Notification.class,
                n -> assertThat(n.method()).isEqualTo("notifications/progress"));
        assertThat(nextMessage()).isInstanceOf(Result.class);
    }

    @Test
    void aNameThatIsNotHeaderSafeTravelsBase64EncodedAndTheServerAgrees() throws Exception {
        transport.send(Outbound.of(request(4, "resources/read", "{'uri': 'file:///docs/café menu.txt'}")));

        Result reply = (Result) nextMessage();
        assertThat(reply.result().path("contents").get(0).path("text").asString()).isEqualTo("soup of the day\n");
        assertThat(lastRequest().header("Mcp-Name")).isEqualTo("=?base64?ZmlsZTovLy9kb2NzL2NhZsOpIG1lbnUudHh0?=");
    }

    @Test
    void paramHeadersFromTheToolSchemaAreSentAndAgreeWithTheBody() throws Exception {
        transport.send(Outbound.of(request(5, "tools/list", null)));
        JsonNode schema = null;
        for (JsonNode tool : ((Result) nextMessage()).result().path("tools")) {
            if (tool.path("name").asString().equals("header_tool")) {
                schema = tool.get("inputSchema");
            }
        }
        Request call = request(6, "tools/call", "{'name': 'header_tool', 'arguments': {'region': 'eu west\\n1',"
                + " 'count': 42, 'verbose': true, 'target': {'zone': 'b'}, 'query': 'SELECT 1'}}");

        transport.send(new Outbound(call, ParamHeaders.of(schema).headersFor(call.params().get("arguments"))));

        assertThat(nextMessage()).isInstanceOf(Result.class);
        RecordedRequest sent = lastRequest();
        assertThat(sent.header("Mcp-Param-Region")).startsWith("=?base64?");
        assertThat(sent.header("Mcp-Param-Count")).isEqualTo("42");
        assertThat(sent.header("Mcp-Param-Verbose")).isEqualTo("true");
        assertThat(sent.header("Mcp-Param-Zone")).isEqualTo("b");
    }

    @Test
    void aHeaderMismatchArrivesAsTheRequestsJsonRpcError() throws Exception {
        expectedMismatches = 1;
        Request call = request(7, "tools/call", "{'name': 'header_tool', 'arguments': {'region': 'us-west1'}}");

        transport.send(new Outbound(call, Map.of("Mcp-Param-Region", "eu-west1")));

        assertThat(nextMessage()).isInstanceOfSatisfying(ErrorResponse.class, e -> {
            assertThat(e.id()).isEqualTo(RequestId.of(7));
            assertThat(e.error().code()).isEqualTo(-32020);
        });
        assertThat(upstream.executions("header_tool")).isZero();
    }

    @Test
    void anUnsupportedVersionArrivesAsTheRequestsJsonRpcErrorListingTheSupportedOnes() throws Exception {
        upstream.supportedVersions("2099-01-01");

        transport.send(Outbound.of(request(8, "server/discover", null)));

        assertThat(nextMessage()).isInstanceOfSatisfying(ErrorResponse.class, e -> {
            assertThat(e.error().code()).isEqualTo(-32022);
            assertThat(e.error().data().path("supported").get(0).asString()).isEqualTo("2099-01-01");
        });
    }

    @Test
    void aRequestWithoutModernMetaIsRefusedBeforeItLeaves() {
        Request bare = new Request(RequestId.of(9), "tools/list", null);

        assertThatThrownBy(() -> transport.send(Outbound.of(bare))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("io.modelcontextprotocol/protocolVersion");
        assertThat(upstream.requests()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(BreakMode.class)
    void aStreamThatEndsWithoutTheResponseFailsTheRequestAtOnce(BreakMode mode) throws Exception {
        upstream.breakStream("destructive_tool", 1, mode);
        long started = System.nanoTime();

        transport.send(Outbound.of(request(10, "tools/call", "{'name': 'destructive_tool', 'arguments': {}}")));

        TransportEvent event = next();
        assertThat(event).isInstanceOfSatisfying(RequestFailed.class, failed -> {
            assertThat(failed.id()).isEqualTo(RequestId.of(10));
            assertThat(failed.error()).isInstanceOf(StreamLostException.class);
        });
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThat(upstream.executions("destructive_tool")).as("it ran before the stream broke").isEqualTo(1);
    }

    @Test
    void aResourceStreamCutIsReportedForThatRequestOnly() throws Exception {
        upstream.breakStream("file:///docs/readme.md", 1).sseForEverything(true);

        transport.send(Outbound.of(request(11, "resources/read", "{'uri': 'file:///docs/readme.md'}")));
        assertThat(next()).isInstanceOfSatisfying(RequestFailed.class, f -> assertThat(f.id()).isEqualTo(RequestId.of(11)));

        transport.send(Outbound.of(request(12, "resources/read", "{'uri': 'file:///docs/readme.md'}")));
        assertThat(nextMessage()).isInstanceOf(Result.class);
    }

    @Test
    void anEventOverTheSizeLimitLosesTheStreamInsteadOfMemory() throws Exception {
        transport.close();
        events.clear();
        transport = wrap(transportTo(upstream, JsonRpcMessageLimit.TINY));
        transport.start(events::add);

        transport.send(Outbound.of(request(13, "tools/call", "{'name': 'plain_tool', 'arguments': {'text': '" + "x".repeat(400) + "'}}")));

        assertThat(next()).isInstanceOfSatisfying(RequestFailed.class,
                f -> assertThat(f.error()).isInstanceOf(StreamLostException.class).hasMessageContaining("limit"));
    }

    @Test
    void aFailureStatusWithoutJsonRpcErrorFailsTheRequestWithTheStatus() throws Exception {
        upstream.answerNextWith(503, "text/plain", "down for maintenance");

        transport.send(Outbound.of(request(14, "tools/list", null)));

        assertThat(next()).isInstanceOfSatisfying(RequestFailed.class, f -> {
            assertThat(f.id()).isEqualTo(RequestId.of(14));
            assertThat(f.error()).isInstanceOfSatisfying(HttpStatusException.class, e -> {
                assertThat(e.status()).isEqualTo(503);
                assertThat(e.body()).isEqualTo("down for maintenance");
            });
        });
    }

    @Test
    void anUnreachableUpstreamFailsTheRequestAsUnavailable() throws Exception {
        ModernHttpUpstream gone = ModernHttpUpstream.start();
        gone.close();
        ModernHttpTransport toNowhere = transportTo(gone, JsonRpcMessageLimit.DEFAULT);
        toNowhere.start(events::add);

        toNowhere.send(Outbound.of(request(15, "tools/list", null)));

        assertThat(next()).isInstanceOfSatisfying(RequestFailed.class,
                f -> assertThat(f.error()).isInstanceOf(UpstreamUnavailableException.class));
        toNowhere.close();
    }

    @Test
    void sendReturnsBeforeASlowUpstreamAnswersSoTheCallersTimeoutCoversTheWait() throws Exception {
        upstream.delay("plain_tool", Duration.ofSeconds(1));
        long started = System.nanoTime();

        transport.send(Outbound.of(request(19, "tools/call", "{'name': 'plain_tool', 'arguments': {}}")));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(500));
        assertThat(nextMessage()).isInstanceOf(Result.class);
    }

    @Test
    void aListenStreamDeliversNotificationsAndItsLossIsReported() throws Exception {
        transport.send(Outbound.of(request(16, "subscriptions/listen", "{'notifications': {'toolsListChanged': true}}")));
        assertThat(nextMessage()).isInstanceOfSatisfying(Notification.class,
                n -> assertThat(n.method()).isEqualTo("notifications/subscriptions/acknowledged"));
        await().until(() -> upstream.openSubscriptions() == 1);

        upstream.pushToolsListChanged();
        assertThat(nextMessage()).isInstanceOfSatisfying(Notification.class, n -> {
            assertThat(n.method()).isEqualTo("notifications/tools/list_changed");
            assertThat(n.params().path("_meta").path("io.modelcontextprotocol/subscriptionId").asLong()).isEqualTo(16);
        });

        upstream.endSubscriptions(false);
        assertThat(next()).isInstanceOfSatisfying(RequestFailed.class, f -> {
            assertThat(f.id()).isEqualTo(RequestId.of(16));
            assertThat(f.error()).isInstanceOf(StreamLostException.class);
        });
    }

    @Test
    void aGracefullyEndedListenStreamCompletesItsRequest() throws Exception {
        transport.send(Outbound.of(request(17, "subscriptions/listen", "{'notifications': {'toolsListChanged': true}}")));
        nextMessage();
        await().until(() -> upstream.openSubscriptions() == 1);

        upstream.endSubscriptions(true);

        assertThat(nextMessage()).isInstanceOfSatisfying(Result.class, r -> assertThat(r.id()).isEqualTo(RequestId.of(17)));
        assertThat(events.poll(300, TimeUnit.MILLISECONDS)).as("no stream-lost after a graceful end").isNull();
    }

    @Test
    void aNotificationTheUpstreamNeverAcknowledgesFailsAtItsTimeoutAsUnanswered() throws Exception {
        CountDownLatch testOver = new CountDownLatch(1);
        HttpServer silent = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        silent.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        silent.createContext("/mcp", exchange -> {
            exchange.getRequestBody().readAllBytes();
            try {
                testOver.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        silent.start();
        ModernHttpTransport toSilent = new ModernHttpTransport(new UpstreamEndpoint.Http(
                URI.create("http://127.0.0.1:" + silent.getAddress().getPort() + "/mcp"), Map.of(),
                UpstreamEndpoint.HttpKind.STREAMABLE));
        toSilent.start(events::add);
        try {
            assertThatThrownBy(() -> toSilent.send(new Outbound(new Notification("notifications/roots/list_changed", null),
                    Map.of(), Duration.ofMillis(300))))
                    .isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("did not answer");
        } finally {
            testOver.countDown();
            toSilent.close();
            silent.stop(0);
        }
    }

    @Test
    void cancellingClosesTheResponseStreamInsteadOfSendingANotification() throws Exception {
        transport.send(Outbound.of(request(18, "subscriptions/listen", "{'notifications': {'toolsListChanged': true}}")));
        nextMessage();
        await().until(() -> upstream.openSubscriptions() == 1);
        int requestsBefore = upstream.requests().size();
        ObjectNode params = Json.object();
        params.put("requestId", 18);

        transport.send(Outbound.of(new Notification("notifications/cancelled", params)));

        await().atMost(Duration.ofSeconds(3)).until(() -> upstream.openSubscriptions() == 0);
        assertThat(upstream.requests()).hasSize(requestsBefore);
        assertThat(events.poll(300, TimeUnit.MILLISECONDS)).as("a cancelled request is not reported lost").isNull();
    }

    @Test
    void aServerRequestOnAResponseStreamIsDroppedAndTheResponseStillArrives() throws Exception {
        upstream.answerNextWith(200, "text/event-stream",
                "data: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}\n\n"
                        + "data: {\"jsonrpc\":\"2.0\",\"id\":20,\"result\":{}}\n\n");

        transport.send(Outbound.of(request(20, "tools/list", null)));

        assertThat(nextMessage()).isInstanceOfSatisfying(Result.class, r -> assertThat(r.id()).isEqualTo(RequestId.of(20)));
    }

    @Test
    void anErrorWithoutIdInAResponseBodyIsThatRequestsError() throws Exception {
        upstream.answerNextWith(200, "application/json",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":\"boom\"}}");

        transport.send(Outbound.of(request(21, "tools/list", null)));

        assertThat(nextMessage()).isInstanceOfSatisfying(ErrorResponse.class, e -> {
            assertThat(e.id()).isEqualTo(RequestId.of(21));
            assertThat(e.error().message()).isEqualTo("boom");
        });
    }

    @Test
    void aBodyThatIsNotJsonRpcIsReportedAndLosesTheRequest() throws Exception {
        upstream.answerNextWith(200, "application/json", "<html>oops</html>");

        transport.send(Outbound.of(request(22, "tools/list", null)));

        assertThat(next()).isInstanceOf(TransportEvent.Undecodable.class);
        assertThat(next()).isInstanceOfSatisfying(RequestFailed.class,
                f -> assertThat(f.error()).isInstanceOf(StreamLostException.class));
    }

    @Test
    void aResponseIsNeverPosted() {
        Result answer = new Result(RequestId.of("server-1"), Json.object());

        assertThatThrownBy(() -> transport.send(Outbound.of(answer))).isInstanceOf(IllegalArgumentException.class);
        assertThat(upstream.requests()).isEmpty();
    }

    @Test
    void configuredHeadersCannotImpersonateProtocolHeaders() {
        UpstreamEndpoint.Http endpoint = new UpstreamEndpoint.Http(upstream.url(), Map.of("mcp-session-id", "x"),
                UpstreamEndpoint.HttpKind.STREAMABLE);

        assertThatThrownBy(() -> new ModernHttpTransport(endpoint)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mcp-session-id");
    }
}

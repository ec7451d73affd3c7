package dev.mcpx.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.SessionExpiredException;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream.ResponseMode;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream.SessionLossAnswer;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class LegacyHttpTransportTest {

    /** The transport under test as a test drives it; {@link SenderCollectsTests} drives it as the client does. */
    Transport wrap(Transport transport) {
        return transport;
    }

    private static final LegacyHttpOptions FAST = LegacyHttpOptions.defaults().withDefaultRetry(Duration.ofMillis(100));

    private final AtomicLong ids = new AtomicLong();
    private final RecordedEvents events = new RecordedEvents();
    private LegacyHttpUpstream upstream;
    private Transport transport;

    @BeforeEach
    void startUpstream() {
        upstream = LegacyHttpUpstream.started();
    }

    @AfterEach
    void stopAll() {
        if (transport != null) {
            transport.close();
        }
        upstream.close();
    }

    private Transport connect(LegacyHttpOptions options, Map<String, String> headers) {
        transport = wrap(LegacyHttpTransports.streamable(
                new UpstreamEndpoint.Http(upstream.url(), headers, UpstreamEndpoint.HttpKind.STREAMABLE), options));
        transport.start(events);
        return transport;
    }

    private Transport connect() {
        return connect(FAST, Map.of());
    }

    private String handshake() {
        ObjectNode params = Json.object();
        params.put("protocolVersion", "2025-11-25");
        params.putObject("capabilities").putObject("elicitation");
        params.putObject("clientInfo").put("name", "test").put("version", "1");
        RequestId id = nextId();
        transport.send(Outbound.of(new Request(id, "initialize", params)));
        assertThat(events.result(id).result().path("protocolVersion").asString()).isEqualTo("2025-11-25");
        transport.handshakeCompleted(ProtocolVersion.V2025_11_25);
        transport.send(Outbound.of(new Notification("notifications/initialized", null)));
        transport.sessionReady(Duration.ofSeconds(10));
        return transport.sessionId().orElseThrow();
    }

    private RequestId nextId() {
        return RequestId.of(ids.incrementAndGet());
    }

    private RequestId call(String tool, ObjectNode arguments) {
        ObjectNode params = Json.object();
        params.put("name", tool);
        params.set("arguments", arguments);
        RequestId id = nextId();
        transport.send(Outbound.of(new Request(id, "tools/call", params)));
        return id;
    }

    private static String text(JsonRpcMessage.Result result) {
        return result.result().path("content").path(0).path("text").asString();
    }

    private static ObjectNode args(String key, Object value) {
        ObjectNode args = Json.object();
        if (value instanceof Number n) {
            args.put(key, n.longValue());
        } else {
            args.put(key, String.valueOf(value));
        }
        return args;
    }

    @Test
    void aRequestAnsweredWithOneJsonObjectIsDelivered() {
        connect();
        handshake();
        RequestId id = nextId();
        transport.send(Outbound.of(new Request(id, "tools/list", null)));
        assertThat(events.result(id).result().path("tools").size()).isEqualTo(6);
    }

    @Test
    void aRequestAnsweredWithAnSseStreamIsDelivered() {
        upstream.responseMode(ResponseMode.SSE);
        connect();
        handshake();
        RequestId id = call("echo", args("text", "hi"));
        assertThat(text(events.result(id))).isEqualTo("hi");
    }

    @Test
    void everyRequestAfterTheHandshakeCarriesSessionVersionAndConfiguredHeaders() {
        connect(FAST, Map.of("Authorization", "Bearer secret"));
        String session = handshake();
        RequestId id = call("add", args("a", 2));
        events.result(id);
        org.awaitility.Awaitility.await().until(() -> upstream.requests().stream().anyMatch(r -> r.httpMethod().equals("GET")));
        transport.close();
        transport = null;

        List<RecordedRequest> seen = upstream.requests();
        assertThat(seen).allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer secret"));
        RecordedRequest initialize = seen.getFirst();
        assertThat(initialize.rpcMethod()).isEqualTo("initialize");
        assertThat(initialize.sessionId()).isNull();
        assertThat(initialize.header("Accept")).contains("application/json").contains("text/event-stream");
        assertThat(seen.subList(1, seen.size())).isNotEmpty().allSatisfy(r -> {
            assertThat(r.sessionId()).isEqualTo(session);
            assertThat(r.httpMethod().equals("POST") && r.rpcMethod().equals("notifications/initialized")
                    || "2025-11-25".equals(r.protocolVersion())).isTrue();
        });
        assertThat(seen).anyMatch(r -> r.httpMethod().equals("GET"));
        assertThat(seen.getLast().httpMethod()).isEqualTo("DELETE");
    }

    @Test
    void everyPostAcceptsJsonAndEventStreamAndCarriesExactlyOneJsonRpcMessage() {
        connect();
        handshake();
        RequestId id = call("ask", args("kind", "elicitation"));
        TransportEvent.Received asked = (TransportEvent.Received) events.await(e -> e instanceof TransportEvent.Received r
                && r.message() instanceof Request, Duration.ofSeconds(5), "the server's request");
        ObjectNode answer = Json.object();
        answer.put("action", "decline");
        transport.send(Outbound.of(new JsonRpcMessage.Result(((Request) asked.message()).id(), answer)));
        events.result(id);

        List<RecordedRequest> posts = upstream.requests().stream().filter(r -> r.httpMethod().equals("POST")).toList();
        assertThat(posts).extracting(r -> Json.parse(r.body()).has("method") ? "request or notification" : "response")
                .contains("request or notification", "response");
        assertThat(posts).allSatisfy(r -> {
            assertThat(r.header("Accept")).contains("application/json").contains("text/event-stream");
            assertThat(r.header("Content-Type")).startsWith("application/json");
            assertThat(Json.parse(r.body()).isObject()).as("one JSON-RPC message, not a batch").isTrue();
            assertThat(Json.parse(r.body()).path("jsonrpc").asString()).isEqualTo("2.0");
        });
    }

    @Test
    void theListenStreamsGetAcceptsEventStream() {
        connect();
        handshake();
        awaitListenStreams(1);
        List<RecordedRequest> gets = upstream.requests().stream().filter(r -> r.httpMethod().equals("GET")).toList();
        assertThat(gets).hasSize(1).allSatisfy(r -> assertThat(r.header("Accept")).contains("text/event-stream"));
    }

    @Test
    void aForgottenSessionFailsTheRequestWithSessionExpiredNamingTheIdItWasSentWith() {
        connect();
        String session = handshake();
        upstream.forgetSessions();
        assertThat(failureOf(new Request(nextId(), "tools/list", null)))
                .isInstanceOfSatisfying(SessionExpiredException.class, e -> {
                    assertThat(e.sessionId()).isEqualTo(session);
                    assertThat(e.status()).isEqualTo(404);
                });
    }

    @Test
    void theReferenceServers400ForAnUnknownSessionIsAlsoSessionExpired() {
        upstream.sessionLossAnswer(SessionLossAnswer.BAD_REQUEST);
        connect();
        String session = handshake();
        upstream.forgetSessions();
        assertThat(failureOf(new Request(nextId(), "ping", null)))
                .isInstanceOfSatisfying(SessionExpiredException.class, e -> {
                    assertThat(e.sessionId()).isEqualTo(session);
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e).hasMessageContaining("No valid session ID provided");
                });
    }

    @Test
    void expireSessionClearsOnlyTheCurrentSessionAndANewInitializeStartsAFreshOne() {
        connect();
        String first = handshake();
        transport.expireSession("some-older-session");
        assertThat(transport.sessionId()).contains(first);
        transport.expireSession(first);
        assertThat(transport.sessionId()).isEmpty();

        String second = handshake();
        assertThat(second).isNotEqualTo(first);
        List<RecordedRequest> initializes = upstream.requests().stream()
                .filter(r -> "initialize".equals(r.rpcMethod())).toList();
        assertThat(initializes).hasSize(2).allSatisfy(r -> assertThat(r.sessionId()).isNull());
    }

    @Test
    void betweenExpiryAndTheNextInitializeNothingLeavesWithoutASession() {
        connect();
        String session = handshake();
        transport.expireSession(session);
        int before = upstream.requests().size();

        assertThatThrownBy(() -> transport.send(Outbound.of(new Request(nextId(), "tools/list", null))))
                .isInstanceOfSatisfying(SessionExpiredException.class, e -> assertThat(e.sessionId()).isEqualTo(session));
        assertThat(upstream.requests()).hasSize(before);

        handshake();
        RequestId id = nextId();
        transport.send(Outbound.of(new Request(id, "tools/list", null)));
        events.result(id);
    }

    @Test
    void aCutStreamIsResumedWithLastEventIdAfterTheServersRetryWait() {
        upstream.responseMode(ResponseMode.SSE);
        connect();
        handshake();
        upstream.cutNextStream(400);
        RequestId id = call("increment", Json.object());

        assertThat(text(events.result(id))).isEqualTo("1");
        assertThat(upstream.executions("increment")).isEqualTo(1);
        List<RecordedRequest> resumes = upstream.resumes();
        assertThat(resumes).hasSize(1);
        assertThat(resumes.getFirst().lastEventId()).isNotBlank();
        assertThat(resumes.getFirst().header("Accept")).contains("text/event-stream");
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(resumes.getFirst().nanoTime() - upstream.cutTimes().getFirst());
        assertThat(waitedMillis).isBetween(380L, 2000L);
    }

    @Test
    void withoutRetryFieldTheResumeWaitsTheDefault() {
        upstream.responseMode(ResponseMode.SSE);
        connect(FAST.withDefaultRetry(Duration.ofMillis(250)), Map.of());
        handshake();
        upstream.cutNextStreams(1, -1);
        RequestId id = call("echo", args("text", "again"));

        assertThat(text(events.result(id))).isEqualTo("again");
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(
                upstream.resumes().getFirst().nanoTime() - upstream.cutTimes().getFirst());
        assertThat(waitedMillis).isGreaterThanOrEqualTo(230L);
    }

    @Test
    void whenResumingGivesUpTheRequestFailsWithStreamLost() {
        upstream.responseMode(ResponseMode.SSE);
        upstream.replayOnResume(false);
        connect(FAST.withMaxResumeAttempts(2), Map.of());
        handshake();
        upstream.cutNextStream(50);
        RequestId id = call("echo", args("text", "lost"));

        TransportEvent.RequestFailed failed = events.await(TransportEvent.RequestFailed.class, Duration.ofSeconds(10));
        assertThat(failed.id()).isEqualTo(id);
        assertThat(failed.error()).isInstanceOf(StreamLostException.class).hasMessageContaining("2 resume attempts");
        assertThat(upstream.resumes()).hasSize(2);
    }

    @Test
    void progressNotificationsArriveBeforeTheResult() {
        connect();
        handshake();
        ObjectNode params = Json.object();
        params.put("name", "progress");
        params.putObject("arguments").put("steps", 3);
        params.putObject("_meta").put("progressToken", "tok");
        RequestId id = nextId();
        transport.send(Outbound.of(new Request(id, "tools/call", params)));

        assertThat(text(events.result(id))).isEqualTo("done 3 steps");
        List<JsonRpcMessage> messages = events.messages();
        List<JsonRpcMessage> progress = messages.stream()
                .filter(m -> m instanceof Notification n && n.method().equals("notifications/progress")).toList();
        assertThat(progress).hasSize(3);
        assertThat(messages.indexOf(progress.getLast())).isLessThan(messages.size() - 1);
    }

    @Test
    void aServerRequestOnTheStreamIsDeliveredAndTheClientsAnswerIsPostedBack() {
        connect();
        handshake();
        RequestId id = call("ask", args("kind", "elicitation"));

        TransportEvent.Received asked = (TransportEvent.Received) events.await(e -> e instanceof TransportEvent.Received r
                && r.message() instanceof Request q && q.method().equals("elicitation/create"),
                Duration.ofSeconds(5), "an elicitation request");
        Request elicitation = (Request) asked.message();
        ObjectNode answer = Json.object();
        answer.put("action", "accept");
        answer.putObject("content").put("name", "Ada");
        transport.send(Outbound.of(new JsonRpcMessage.Result(elicitation.id(), answer)));

        assertThat(text(events.result(id))).contains("\"name\":\"Ada\"").contains("accept");
    }

    @Test
    void theListenStreamDeliversServerNotifications() {
        connect();
        handshake();
        awaitListenStreams(1);
        upstream.notifyToolsListChanged();
        events.await(e -> e instanceof TransportEvent.Received r && r.message() instanceof Notification n
                && n.method().equals("notifications/tools/list_changed"), Duration.ofSeconds(5), "list_changed");
    }

    @Test
    void aServerWithoutListenStreamAnswers405AndThatIsFine() throws InterruptedException {
        upstream.listenStream(false);
        connect();
        handshake();  // returns once the listen GET was answered (here: 405)
        RequestId id = nextId();
        transport.send(Outbound.of(new Request(id, "ping", null)));
        events.result(id);
        assertThat(upstream.requests().stream().filter(r -> r.httpMethod().equals("GET"))).hasSize(1);
        assertThat(events.all()).noneMatch(e -> e instanceof TransportEvent.SessionExpired
                || e instanceof TransportEvent.Closed || e instanceof TransportEvent.RequestFailed);
    }

    @Test
    void aListenStreamThatMeetsAForgottenSessionReportsSessionExpired() {
        connect();
        String session = handshake();
        awaitListenStreams(1);
        upstream.forgetSessions();
        TransportEvent.SessionExpired expired = events.await(TransportEvent.SessionExpired.class, Duration.ofSeconds(5));
        assertThat(expired.sessionId()).isEqualTo(session);
    }

    @Test
    void expiringTheSessionStopsItsListenStream() throws InterruptedException {
        connect();
        String session = handshake();
        awaitListenStreams(1);
        transport.expireSession(session);
        upstream.notifyToolsListChanged();

        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(events.messages()).noneMatch(m -> m instanceof Notification n
                        && n.method().equals("notifications/tools/list_changed")));
        assertThat(upstream.requests().stream().filter(r -> r.httpMethod().equals("GET"))).hasSize(1);
    }

    @Test
    void closeDeletesTheSession() {
        connect();
        String session = handshake();
        transport.close();
        transport = null;
        RecordedRequest delete = upstream.requests().stream().filter(r -> r.httpMethod().equals("DELETE"))
                .findFirst().orElseThrow();
        assertThat(delete.sessionId()).isEqualTo(session);
        assertThat(upstream.liveSessions()).isEmpty();
    }

    @Test
    void closeReturnsPromptlyWhenTheServerIsGone() {
        connect();
        handshake();
        upstream.stop();
        long start = System.nanoTime();
        transport.close();
        transport = null;
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(3000);
    }

    @Test
    void anUnreachableServerIsUpstreamUnavailable() {
        connect();
        handshake();
        upstream.stop();
        Throwable failure = failureOf(new Request(nextId(), "ping", null));
        // a kept-alive connection the stopped server closed, before the client saw it close, gives no
        // status line (the client resends a harmless request); a new connection finds nobody there
        for (int stale = 0; failure instanceof StreamLostException && stale < 3; stale++) {
            assertThat(failure).hasMessageContaining("before a status line");
            failure = failureOf(new Request(nextId(), "ping", null));
        }
        assertThat(failure).isInstanceOf(UpstreamUnavailableException.class);
    }

    /**
     * A connect that times out never sent the message: unavailable, not "no response" (which the
     * client may take as a message that left). The listener's accept queue is full and nothing
     * accepts, so Linux drops the SYN and the connect waits out its timeout.
     */
    @Test
    void aConnectThatTimesOutIsUpstreamUnavailable() throws Exception {
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<Socket> queued = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    Socket socket = new Socket();
                    try {
                        socket.connect(full.getLocalSocketAddress(), 200);
                        queued.add(socket);
                    } catch (SocketTimeoutException e) {
                        socket.close();
                        break;
                    }
                }
                transport = wrap(LegacyHttpTransports.streamable(new UpstreamEndpoint.Http(
                        URI.create("http://127.0.0.1:" + full.getLocalPort() + "/mcp"), Map.of(),
                        UpstreamEndpoint.HttpKind.STREAMABLE), FAST.withConnectTimeout(Duration.ofMillis(300))));
                transport.start(events);
                assertThat(failureOf(new Request(nextId(), "ping", null)))
                        .isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("cannot connect");
            } finally {
                for (Socket socket : queued) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aRestartedServerOnTheSamePortAnswersTheOldSession404() {
        connect();
        String session = handshake();
        upstream.restart();
        McpException failure = failureOf(new Request(nextId(), "ping", null));
        if (failure instanceof StreamLostException lost) {
            // The ping went out on the kept-alive connection the restart closed before Jetty's selector
            // noticed (a race a loaded machine shows); the transport drops that connection, and the
            // client sends a harmless request once more (LegacyStaleConnectionTest).
            assertThat(lost.noResponse()).as(lost.getMessage()).isTrue();
            failure = failureOf(new Request(nextId(), "ping", null));
        }
        assertThat(failure)
                .isInstanceOfSatisfying(SessionExpiredException.class, e -> assertThat(e.sessionId()).isEqualTo(session));
        transport.expireSession(session);
        assertThat(handshake()).isNotEqualTo(session);
    }

    /** Sends {@code request}: its send returns at once, and its failure arrives as an event. */
    private McpException failureOf(Request request) {
        transport.send(Outbound.of(request));
        return events.failure(request.id());
    }

    private void awaitListenStreams(int count) {
        long deadline = System.currentTimeMillis() + 5000;
        while (upstream.openListenStreams() < count) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("no listen stream opened");
            }
            Thread.onSpinWait();
        }
    }
}

package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.catalogue.Profiles;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.Limits;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.conformance.ConformanceUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a legacy host's session decides, run through both fronts with the same steps and the same
 * expected replies: one {@link HostSession} serves both, so a stdio host and an HTTP session
 * agree on cancellation, the log level, request ids already in flight and the limit on requests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostSessionTest {

    /** Low, so a test can fill it: a host's third request in flight is refused. */
    private static final int MAX_CALLS = 2;

    enum Front { STDIO, HTTP }

    private ConformanceUpstream logging;
    private Gateway gateway;
    private HttpFront http;
    private final List<AutoCloseable> hosts = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        logging = ConformanceUpstream.start(0, ConformanceUpstream.Eras.LEGACY_ONLY);
        Limits limits = new Limits(Limits.DEFAULTS.maxMessageBytes(), Limits.DEFAULTS.maxSseEventBytes(),
                Limits.DEFAULTS.maxHeaderBytes(), MAX_CALLS, Limits.DEFAULTS.requestTimeout());
        gateway = Gateway.start(new GatewayConfig(Optional.empty(), List.of(TestGateways.fake("fake"),
                TestGateways.withPrefix(UpstreamConfig.of("logging", UpstreamEndpoint.Http.of(logging.url().toString())), "l")),
                List.of(), Optional.empty(), limits, Optional.empty(), Profiles.NONE), TestGateways.settings(), Map.of());
        http = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
    }

    @AfterEach
    void closeHosts() throws Exception {
        for (AutoCloseable host : hosts) {
            host.close();
        }
        hosts.clear();
    }

    @AfterAll
    void stop() {
        http.close();
        gateway.close();
        logging.close();
    }

    @ParameterizedTest
    @EnumSource(Front.class)
    void aCancelledCallIsNotAnsweredAndItsUpstreamCallIsCancelled(Front front) throws Exception {
        Host host = connect(front);
        long cancelledBefore = Long.parseLong(text(host.request(11, "tools/call", call("fake__cancellations"))));
        long sentBefore = requestsToFake();
        CompletableFuture<List<JsonNode>> slow = host.start(2, "tools/call", call("fake__sleep").set("arguments",
                Json.object().put("ms", 20_000)));
        await().atMost(Duration.ofSeconds(20)).until(() -> requestsToFake() > sentBefore);

        host.notify("notifications/cancelled", Json.object().put("requestId", 2).put("reason", "user gave up"));

        AtomicInteger ids = new AtomicInteger(100);
        await().atMost(Duration.ofSeconds(10)).until(() -> Long.parseLong(text(host.request(ids.incrementAndGet(),
                "tools/call", call("fake__cancellations")))) == cancelledBefore + 1);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() ->
                !slow.isDone() || slow.join().stream().noneMatch(message -> message.path("id").asInt() == 2));
    }

    @ParameterizedTest
    @EnumSource(Front.class)
    void logLinesReachTheHostAtTheLevelItSet(Front front) throws Exception {
        Host host = connect(front);
        assertThat(host.request(11, "logging/setLevel", Json.object().put("level", "error")).getLast().has("result")).isTrue();
        List<JsonNode> quiet = host.request(2, "tools/call", call("l__test_tool_with_logging"));
        assertThat(methods(quiet)).isEmpty();
        assertThat(text(quiet)).isEqualTo("Tool with logging executed successfully");

        host.request(3, "logging/setLevel", Json.object().put("level", "info"));
        List<JsonNode> heard = host.request(4, "tools/call", call("l__test_tool_with_logging"));
        assertThat(methods(heard)).containsExactly("notifications/message", "notifications/message", "notifications/message");

        assertThat(host.request(5, "logging/setLevel", Json.object().put("level", "loud")).getLast()
                .path("error").path("code").asInt()).isEqualTo(-32602);
    }

    /** HTTP let a second request take the id of one in flight (its cancellation then reached the wrong one); stdio refused it. */
    @ParameterizedTest
    @EnumSource(Front.class)
    void aRequestIdStillInFlightIsRefused(Front front) throws Exception {
        Host host = connect(front);
        long sentBefore = requestsToFake();
        CompletableFuture<List<JsonNode>> slow = host.start(7, "tools/call", call("fake__sleep").set("arguments",
                Json.object().put("ms", 2_000)));
        await().atMost(Duration.ofSeconds(20)).until(() -> requestsToFake() > sentBefore);

        JsonNode refused = host.request(7, "tools/call", call("fake__echo")).getLast();

        assertThat(refused.path("error").path("code").asInt()).as("%s", refused).isEqualTo(-32600);
        assertThat(refused.path("error").path("message").asString()).contains("already in use");
        if (front == Front.HTTP) {
            // the stdio host's reader keys replies by id: only HTTP can tell the first answer apart
            assertThat(text(slow.get(30, TimeUnit.SECONDS))).isEqualTo("slept");
        }
    }

    /** Every request counts toward maxConcurrentCallsPerHost, as on stdio: HTTP counted routed calls only. */
    @ParameterizedTest
    @EnumSource(Front.class)
    void aRequestOverTheHostsLimitIsRefusedWhateverItsMethod(Front front) throws Exception {
        Host host = connect(front);
        long sentBefore = requestsToFake();
        List<CompletableFuture<List<JsonNode>>> slow = new ArrayList<>();
        for (int id = 21; id < 21 + MAX_CALLS; id++) {
            slow.add(host.start(id, "tools/call", call("fake__sleep").set("arguments", Json.object().put("ms", 3_000))));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> requestsToFake() >= sentBefore + MAX_CALLS);

        JsonNode refused = host.request(10, "ping", null).getLast();

        assertThat(refused.path("error").path("code").asInt()).as("%s", refused).isEqualTo(-32005);
        assertThat(refused.path("error").path("message").asString()).contains("maxConcurrentCallsPerHost");
        for (CompletableFuture<List<JsonNode>> call : slow) {
            assertThat(text(call.get(30, TimeUnit.SECONDS))).isEqualTo("slept");
        }
        assertThat(host.request(11, "ping", null).getLast().has("result")).isTrue();
    }

    /** A 2026-07-28 host's subscriptions/listen, on stdout or its own SSE response: acknowledged first, then the list changes it asked for. */
    @ParameterizedTest
    @EnumSource(Front.class)
    void aModernListenIsAcknowledgedThenHearsTheListChangesItAskedFor(Front front) throws Exception {
        ObjectNode params = Json.object();
        params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        params.putObject("notifications").put("toolsListChanged", true);
        ObjectNode listen = Json.object().put("jsonrpc", "2.0").put("id", "listen-1").put("method", "subscriptions/listen");
        listen.set("params", params);
        BlockingQueue<JsonNode> heard = new LinkedBlockingQueue<>();
        if (front == Front.STDIO) {
            LineHost lines = LineHost.ofStdioFront(gateway);
            hosts.add(lines);
            lines.writeRaw(Json.write(listen));
            Thread.ofVirtual().start(() -> {
                try {
                    for (JsonNode message = lines.nextNotification(Duration.ofMinutes(2)); message != null;
                         message = lines.nextNotification(Duration.ofMinutes(2))) {
                        heard.add(message);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        } else {
            HttpHost modern = HttpHost.modern(http.mcpUri());
            CompletableFuture<?> stream = modern.client().sendAsync(modern.builder(listen, "subscriptions/listen").build(),
                    HttpResponse.BodyHandlers.ofLines()).thenAcceptAsync(response -> response.body()
                    .filter(line -> line.startsWith("data:") && !line.substring(5).isBlank())
                    .forEach(line -> heard.add(Json.parse(line.substring(5).trim()))), task -> Thread.ofVirtual().start(task));
            hosts.add(() -> stream.cancel(true));
        }

        JsonNode ack = heard.poll(60, TimeUnit.SECONDS);
        assertThat(ack).isNotNull();
        assertThat(ack.path("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(ack.path("params").path("_meta").path("io.modelcontextprotocol/subscriptionId").asString()).isEqualTo("listen-1");
        assertThat(ack.path("params").path("notifications").path("toolsListChanged").asBoolean()).isTrue();
        assertThat(ack.path("params").path("notifications").has("promptsListChanged")).isFalse();

        Host other = connect(Front.HTTP);
        assertThat(text(other.request(41, "tools/call", call("fake__add_tool").set("arguments",
                Json.object().put("name", "fresh_" + front))))).isEqualTo("added");

        JsonNode change = null;
        for (JsonNode message = heard.poll(30, TimeUnit.SECONDS); message != null && change == null;
             message = change == null ? heard.poll(30, TimeUnit.SECONDS) : null) {
            if ("notifications/tools/list_changed".equals(message.path("method").asString())) {
                change = message;
            }
        }
        assertThat(change).as("a tools/list_changed after the upstream's tool was added").isNotNull();
        assertThat(change.path("params").path("_meta").path("io.modelcontextprotocol/subscriptionId").asString())
                .isEqualTo("listen-1");
    }

    /** One legacy host, initialized (its initialize had id 1); each request's messages as the host receives them, its answer last. */
    private interface Host extends AutoCloseable {

        CompletableFuture<List<JsonNode>> start(int id, String method, ObjectNode params);

        default List<JsonNode> request(int id, String method, ObjectNode params) throws Exception {
            return start(id, method, params).get(60, TimeUnit.SECONDS);
        }

        void notify(String method, ObjectNode params) throws Exception;
    }

    private Host connect(Front front) throws Exception {
        Host host = front == Front.STDIO ? stdioHost() : httpHost();
        hosts.add(host);
        return host;
    }

    private Host stdioHost() throws Exception {
        LineHost lines = LineHost.ofStdioFront(gateway);
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "stdio-host").put("version", "1");
        lines.reply(lines.send("initialize", init), Duration.ofSeconds(60));
        lines.notify("notifications/initialized", null);
        return new Host() {
            @Override
            public CompletableFuture<List<JsonNode>> start(int id, String method, ObjectNode params) {
                ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", method);
                if (params != null) {
                    request.set("params", params);
                }
                lines.writeRaw(Json.write(request));
                return CompletableFuture.supplyAsync(() -> {
                    try {
                        JsonNode reply = lines.reply(Integer.toString(id), Duration.ofSeconds(90));
                        // the reader queued what came before the reply before it handed the reply over
                        List<JsonNode> seen = new ArrayList<>();
                        for (JsonNode note = lines.nextNotification(Duration.ZERO); note != null;
                             note = lines.nextNotification(Duration.ZERO)) {
                            seen.add(note);
                        }
                        seen.add(reply);
                        return seen;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, task -> Thread.ofVirtual().start(task));
            }

            @Override
            public void notify(String method, ObjectNode params) {
                lines.notify(method, params);
            }

            @Override
            public void close() throws Exception {
                lines.close();
            }
        };
    }

    private Host httpHost() throws Exception {
        HttpHost session = HttpHost.legacy(http.mcpUri());
        session.initialize();
        return new Host() {
            @Override
            public CompletableFuture<List<JsonNode>> start(int id, String method, ObjectNode params) {
                ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", method);
                request.set("params", params == null ? Json.object() : params);
                return session.client().sendAsync(session.builder(request, method).build(), HttpResponse.BodyHandlers.ofString())
                        .thenApply(response -> HttpHost.exchange(response).messages());
            }

            @Override
            public void notify(String method, ObjectNode params) throws Exception {
                ObjectNode notification = Json.object().put("jsonrpc", "2.0").put("method", method);
                notification.set("params", params);
                assertThat(session.send(notification, null).status()).isEqualTo(202);
            }

            @Override
            public void close() {
            }
        };
    }

    private static ObjectNode call(String tool) {
        ObjectNode params = Json.object().put("name", tool);
        params.putObject("arguments");
        return params;
    }

    private static List<String> methods(List<JsonNode> messages) {
        return messages.stream().filter(message -> message.has("method")).map(message -> message.path("method").asString()).toList();
    }

    private static String text(List<JsonNode> messages) {
        return messages.getLast().path("result").path("content").path(0).path("text").asString();
    }

    private long requestsToFake() {
        return gateway.status().stream().filter(s -> s.name().equals("fake")).findFirst().orElseThrow().requests();
    }
}

package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resource subscriptions through the gateway over real HTTP: legacy hosts (resources/subscribe,
 * updates on their GET stream) and modern hosts (resourceSubscriptions on subscriptions/listen),
 * each to a resource on a legacy and on a modern upstream.
 */
class HttpResourceSubscriptionsTest {

    private static final String UPDATED = "notifications/resources/updated";
    private static final String COUNTER = "test://counter";
    private static final String STATIC = "test://static";
    private static final String README = "file:///docs/readme.md";
    private static final String MENU = "file:///docs/café menu.txt";

    private LegacyHttpUpstream legacy;
    private ModernHttpUpstream modern;
    private Gateway gateway;
    private HttpFront front;
    private final List<AutoCloseable> streams = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        legacy = LegacyHttpUpstream.started();
        modern = ModernHttpUpstream.start();
        gateway = Gateway.start(TestGateways.config(
                UpstreamConfig.of("old", UpstreamEndpoint.Http.of(legacy.url().toString())),
                UpstreamConfig.of("new", UpstreamEndpoint.Http.of(modern.url().toString()))), TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        gateway.pool().awaitFirstAttempts(Duration.ofSeconds(20));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable stream : streams) {
            stream.close();
        }
        front.close();
        gateway.close();
        modern.close();
        legacy.close();
        assertThat(modern.violations()).isEmpty();
    }

    @Test
    void legacyAndModernHostsGetExactlyTheUpdatesOfTheirOwnResourcesOnBothUpstreams() throws Exception {
        HttpHost legacyHost = legacyHost();
        SseLines legacyStream = getStream(legacyHost);
        assertThat(legacyHost.request("resources/subscribe", uri(COUNTER)).reply().path("result").isEmpty()).isTrue();
        assertThat(legacyHost.request("resources/subscribe", uri(README)).reply().path("result").isEmpty()).isTrue();
        SseLines modernStream = listen("sub-1", STATIC, MENU);
        JsonNode ack = modernStream.await("notifications/subscriptions/acknowledged");
        assertThat(ack.path("params").path("notifications").path("resourceSubscriptions").toString())
                .contains(STATIC).contains("café menu.txt");

        notifyLegacy(COUNTER);
        notifyLegacy(STATIC);
        modern.pushResourceUpdated(README);
        modern.pushResourceUpdated(MENU);

        assertThat(updatedUris(legacyStream, 2)).containsExactlyInAnyOrder(COUNTER, README);
        List<JsonNode> modernUpdates = updates(modernStream, 2);
        assertThat(modernUpdates).extracting(u -> u.path("params").path("uri").asString())
                .containsExactlyInAnyOrder(STATIC, MENU);
        assertThat(modernUpdates).allSatisfy(u -> assertThat(u.path("params").path("_meta")
                .path("io.modelcontextprotocol/subscriptionId").asString()).isEqualTo("sub-1"));
    }

    @Test
    void unsubscribeStopsTheUpdatesAndReleasesTheUpstreams() throws Exception {
        HttpHost host = legacyHost();
        SseLines stream = getStream(host);
        host.request("resources/subscribe", uri(COUNTER));
        host.request("resources/subscribe", uri(README));
        await().until(() -> modern.openSubscriptions() == 2);

        assertThat(host.request("resources/unsubscribe", uri(COUNTER)).reply().path("result").isEmpty()).isTrue();
        assertThat(host.request("resources/unsubscribe", uri(README)).reply().path("result").isEmpty()).isTrue();

        assertThat(legacy.subscriptions().values()).allMatch(Set::isEmpty);
        assertThat(legacy.notifyResourceUpdated(COUNTER)).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> modern.openSubscriptions() == 1);
        modern.pushResourceUpdated(README);
        assertThat(stream.drain(UPDATED, Duration.ofMillis(500))).isEmpty();
    }

    @Test
    void twoHostsShareOneUpstreamSubscriptionUntilTheLastLetsGo() throws Exception {
        HttpHost first = legacyHost();
        SseLines firstStream = getStream(first);
        HttpHost second = legacyHost();
        SseLines secondStream = getStream(second);
        first.request("resources/subscribe", uri(COUNTER));
        second.request("resources/subscribe", uri(COUNTER));
        first.request("resources/subscribe", uri(README));
        SseLines modernStream = listen("sub-2", README);
        modernStream.await("notifications/subscriptions/acknowledged");

        assertThat(legacy.requestIdsSeen("resources/subscribe")).hasSize(1);
        assertThat(modern.listenRequests()).isEqualTo(2);
        notifyLegacy(COUNTER);
        modern.pushResourceUpdated(README);
        assertThat(updatedUris(firstStream, 2)).containsExactlyInAnyOrder(COUNTER, README);
        assertThat(updatedUris(secondStream, 1)).containsExactly(COUNTER);
        assertThat(updatedUris(modernStream, 1)).containsExactly(README);

        first.request("resources/unsubscribe", uri(COUNTER));
        modernStream.close();
        assertThat(legacy.requestIdsSeen("resources/unsubscribe")).isEmpty();
        notifyLegacy(COUNTER);
        modern.pushResourceUpdated(README);
        assertThat(updatedUris(secondStream, 1)).containsExactly(COUNTER);
        assertThat(updatedUris(firstStream, 1)).containsExactly(README);
        assertThat(modern.listenRequests()).isEqualTo(2);

        HttpRequest delete = HttpRequest.newBuilder(front.mcpUri()).header("Mcp-Session-Id", second.sessionId())
                .DELETE().build();
        assertThat(second.raw(delete).statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> legacy.requestIdsSeen("resources/unsubscribe").size() == 1);
        assertThat(legacy.subscriptions().values()).allMatch(Set::isEmpty);
    }

    @Test
    void subscriptionsSurviveRestartsOfBothUpstreamsWithoutTheHostDoingAnything() throws Exception {
        HttpHost host = legacyHost();
        SseLines stream = getStream(host);
        host.request("resources/subscribe", uri(COUNTER));
        host.request("resources/subscribe", uri(README));

        legacy.restart();
        modern.endSubscriptions(false);

        await().atMost(Duration.ofSeconds(20)).until(() -> legacy.subscriptions().values().contains(Set.of(COUNTER)));
        await().atMost(Duration.ofSeconds(20)).until(() -> modern.openSubscriptions() == 2);
        notifyLegacy(COUNTER);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            modern.pushResourceUpdated(README);
            assertThat(stream.drain(UPDATED, Duration.ofMillis(300))).extracting(u -> u.path("params").path("uri").asString())
                    .contains(README);
        });
        assertThat(legacy.initializeCount()).isEqualTo(2);
    }

    @Test
    void anUpstreamReplacedByAConfigChangeKeepsItsHostsSubscriptions() throws Exception {
        HttpHost host = legacyHost();
        SseLines stream = getStream(host);
        host.request("resources/subscribe", uri(COUNTER));

        gateway.reload(TestGateways.config(
                TestGateways.withPrefix(UpstreamConfig.of("old", UpstreamEndpoint.Http.of(legacy.url().toString())), "renamed"),
                UpstreamConfig.of("new", UpstreamEndpoint.Http.of(modern.url().toString()))));

        await().atMost(Duration.ofSeconds(20)).until(() -> legacy.initializeCount() == 2
                && legacy.subscriptions().values().contains(Set.of(COUNTER)));
        notifyLegacy(COUNTER);
        assertThat(updatedUris(stream, 1)).containsExactly(COUNTER);
    }

    @Test
    void unknownResourcesAreAnErrorAndAModernHostsAcknowledgmentLeavesThemOut() throws Exception {
        HttpHost host = legacyHost();

        JsonNode unknown = host.request("resources/subscribe", uri("test://nowhere")).reply();

        assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32002);
        assertThat(unknown.path("error").path("data").path("uri").asString()).isEqualTo("test://nowhere");
        assertThat(host.request("resources/unsubscribe", uri("test://nowhere")).reply().path("error").path("code").asInt())
                .isEqualTo(-32002);
        SseLines stream = listen("sub-3", "test://nowhere", README);
        JsonNode agreed = stream.await("notifications/subscriptions/acknowledged").path("params").path("notifications");
        assertThat(agreed.path("resourceSubscriptions").toString()).isEqualTo("[\"" + README + "\"]");
    }

    @Test
    void theGatewayAdvertisesSubscribeToBothEras() throws Exception {
        JsonNode initialize = HttpHost.legacy(front.mcpUri()).initialize().reply();
        JsonNode discover = HttpHost.modern(front.mcpUri()).request("server/discover", null).reply();

        assertThat(initialize.path("result").path("capabilities").path("resources").path("subscribe").asBoolean()).isTrue();
        assertThat(discover.path("result").path("capabilities").path("resources").path("subscribe").asBoolean()).isTrue();
    }

    @Test
    void anUpstreamWithoutSubscriptionsIsAClearErrorAndNotAdvertised() throws Exception {
        front.close();
        gateway.close();
        legacy.restart();
        legacy.offerSubscriptions(false);
        gateway = Gateway.start(TestGateways.config(UpstreamConfig.of("old", UpstreamEndpoint.Http.of(legacy.url().toString()))),
                TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        gateway.pool().awaitFirstAttempts(Duration.ofSeconds(20));
        HttpHost host = HttpHost.legacy(front.mcpUri());

        JsonNode initialize = host.initialize().reply();
        JsonNode refused = host.request("resources/subscribe", uri(COUNTER)).reply();

        assertThat(initialize.path("result").path("capabilities").path("resources").has("subscribe")).isFalse();
        assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(refused.path("error").path("message").asString()).contains("does not offer resource subscriptions");
        assertThat(legacy.requestIdsSeen("resources/subscribe")).isEmpty();
    }

    private HttpHost legacyHost() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        return host;
    }

    private SseLines getStream(HttpHost host) throws Exception {
        SseLines lines = new SseLines(host.client(), HttpRequest.newBuilder(front.mcpUri())
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", host.sessionId()).GET().build());
        streams.add(lines);
        lines.awaitOpen();
        // the session takes the stream right after its headers leave
        Thread.sleep(100);
        return lines;
    }

    private SseLines listen(String id, String... uris) {
        HttpHost host = HttpHost.modern(front.mcpUri());
        ObjectNode params = Json.object();
        params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        var wanted = params.putObject("notifications").putArray("resourceSubscriptions");
        for (String uri : uris) {
            wanted.add(uri);
        }
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", "subscriptions/listen");
        body.set("params", params);
        SseLines lines = new SseLines(host.client(), host.builder(body, "subscriptions/listen").build());
        streams.add(lines);
        return lines;
    }

    /** Tells the legacy upstream's sessions subscribed to {@code uri}, once one is listening. */
    private void notifyLegacy(String uri) {
        await().atMost(Duration.ofSeconds(20)).until(() -> legacy.notifyResourceUpdated(uri) > 0
                || !legacy.subscriptions().values().stream().anyMatch(s -> s.contains(uri)));
    }

    private static ObjectNode uri(String uri) {
        return Json.object().put("uri", uri);
    }

    private static List<JsonNode> updates(SseLines stream, int expected) throws InterruptedException {
        List<JsonNode> found = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (found.size() < expected && System.nanoTime() < deadline) {
            found.addAll(stream.drain(UPDATED, Duration.ofMillis(100)));
        }
        found.addAll(stream.drain(UPDATED, Duration.ofMillis(500)));
        return found;
    }

    private static List<String> updatedUris(SseLines stream, int expected) throws InterruptedException {
        return updates(stream, expected).stream().map(u -> u.path("params").path("uri").asString()).toList();
    }
}

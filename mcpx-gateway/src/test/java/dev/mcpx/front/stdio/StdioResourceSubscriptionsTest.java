package dev.mcpx.front.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A stdio host subscribes to resources on a legacy and a modern upstream, in either era. */
class StdioResourceSubscriptionsTest {

    private static final String COUNTER = "test://counter";
    private static final String README = "file:///docs/readme.md";

    private LegacyHttpUpstream legacy;
    private ModernHttpUpstream modern;
    private Gateway gateway;
    private LineHost host;

    @BeforeEach
    void start() throws Exception {
        legacy = LegacyHttpUpstream.started();
        modern = ModernHttpUpstream.start();
        gateway = Gateway.start(TestGateways.config(
                UpstreamConfig.of("old", UpstreamEndpoint.Http.of(legacy.url().toString())),
                UpstreamConfig.of("new", UpstreamEndpoint.Http.of(modern.url().toString()))), TestGateways.settings(), Map.of());
        gateway.pool().awaitFirstAttempts(Duration.ofSeconds(20));
        host = LineHost.ofStdioFront(gateway);
    }

    @AfterEach
    void stop() throws Exception {
        host.close();
        gateway.close();
        modern.close();
        legacy.close();
    }

    @Test
    void aLegacyHostGetsItsUpdatesAsNotificationsAndClosingStdinReleasesThem() throws Exception {
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "stdio-host").put("version", "1");
        JsonNode initialized = host.request("initialize", init);
        host.notify("notifications/initialized", null);
        assertThat(initialized.path("result").path("capabilities").path("resources").path("subscribe").asBoolean()).isTrue();

        assertThat(host.request("resources/subscribe", uri(COUNTER)).path("result").isEmpty()).isTrue();
        assertThat(host.request("resources/subscribe", uri(README)).path("result").isEmpty()).isTrue();
        await().atMost(Duration.ofSeconds(20)).until(() -> legacy.notifyResourceUpdated(COUNTER) > 0);
        modern.pushResourceUpdated(README);

        assertThat(updatedUris(2)).containsExactlyInAnyOrder(COUNTER, README);

        host.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> legacy.subscriptions().values().stream().allMatch(Set::isEmpty));
        await().atMost(Duration.ofSeconds(10)).until(() -> modern.openSubscriptions() == 1);
    }

    @Test
    void aModernHostSubscribesOnItsListenStreamAndCancellingItReleasesThem() throws Exception {
        ObjectNode listen = Json.object();
        listen.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        listen.putObject("notifications").putArray("resourceSubscriptions").add(COUNTER).add(README);
        String id = host.send("subscriptions/listen", listen);

        JsonNode ack = host.nextNotification(Duration.ofSeconds(20));
        assertThat(ack.path("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(ack.path("params").path("notifications").path("resourceSubscriptions").toString())
                .contains(COUNTER).contains(README);
        await().atMost(Duration.ofSeconds(20)).until(() -> legacy.notifyResourceUpdated(COUNTER) > 0);
        modern.pushResourceUpdated(README);
        List<JsonNode> updates = updates(2);
        assertThat(updates).extracting(u -> u.path("params").path("uri").asString()).containsExactlyInAnyOrder(COUNTER, README);
        assertThat(updates).allSatisfy(u -> assertThat(u.path("params").path("_meta")
                .path("io.modelcontextprotocol/subscriptionId").toString()).isEqualTo(id));

        host.notify("notifications/cancelled", Json.object().put("requestId", Long.parseLong(id)));

        await().atMost(Duration.ofSeconds(10)).until(() -> legacy.subscriptions().values().stream().allMatch(Set::isEmpty));
        await().atMost(Duration.ofSeconds(10)).until(() -> modern.openSubscriptions() == 1);
        modern.pushResourceUpdated(README);
        assertThat(updates(0)).isEmpty();
    }

    @Test
    void aRestartedStdioUpstreamIsSubscribedAgainWithoutTheHostDoingAnything() throws Exception {
        gateway.reload(TestGateways.config(TestGateways.fake("child", "--resources")));
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "stdio-host").put("version", "1");
        host.request("initialize", init);
        host.notify("notifications/initialized", null);
        assertThat(host.request("resources/subscribe", uri("fake://note")).path("result").isEmpty()).isTrue();
        assertThat(text(host.request("tools/call", touch()))).isEqualTo("touched fake://note");
        assertThat(updatedUris(1)).containsExactly("fake://note");

        host.request("tools/call", Json.object().put("name", "child__die"));
        await().atMost(Duration.ofSeconds(30)).until(() -> gateway.status().getFirst().restarts() == 1
                && "up".equals(gateway.status().getFirst().state()));

        await().atMost(Duration.ofSeconds(20)).until(() -> text(host.request("tools/call", touch())).equals("touched fake://note"));
        assertThat(updatedUris(1)).containsExactly("fake://note");
    }

    private static ObjectNode touch() {
        ObjectNode params = Json.object().put("name", "child__touch");
        params.putObject("arguments").put("uri", "fake://note");
        return params;
    }

    private static String text(JsonNode reply) {
        return reply.path("result").path("content").path(0).path("text").asString();
    }

    private static ObjectNode uri(String uri) {
        return Json.object().put("uri", uri);
    }

    private List<JsonNode> updates(int expected) throws InterruptedException {
        List<JsonNode> found = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (found.size() < expected && System.nanoTime() < deadline) {
            JsonNode next = host.nextNotification(Duration.ofMillis(100));
            if (next != null && "notifications/resources/updated".equals(next.path("method").asString())) {
                found.add(next);
            }
        }
        long quiet = System.nanoTime() + Duration.ofMillis(500).toNanos();
        while (System.nanoTime() < quiet) {
            JsonNode next = host.nextNotification(Duration.ofMillis(50));
            if (next != null && "notifications/resources/updated".equals(next.path("method").asString())) {
                found.add(next);
            }
        }
        return found;
    }

    private List<String> updatedUris(int expected) throws InterruptedException {
        return updates(expected).stream().map(u -> u.path("params").path("uri").asString()).toList();
    }
}

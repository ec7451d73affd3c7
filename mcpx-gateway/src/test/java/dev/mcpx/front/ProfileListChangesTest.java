package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.Profile;
import dev.mcpx.catalogue.Profiles;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.Limits;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code list_changed} reaches only the hosts whose profile the change touches: a tool added to
 * the upstream of profile "ops" is heard by the hosts of "ops" and of {@code /mcp}, and not by
 * those of "review" (legacy and modern over HTTP, and stdio), which hear their own upstream's
 * change.
 */
class ProfileListChangesTest {

    private static final Executor ON_VIRTUAL_THREAD = task -> Thread.ofVirtual().start(task);
    private static final String TOOLS_CHANGED = "notifications/tools/list_changed";

    private Gateway gateway;
    private HttpFront front;
    private LineHost stdioReview;

    @AfterEach
    void stop() throws Exception {
        if (stdioReview != null) {
            stdioReview.close();
        }
        front.close();
        gateway.close();
    }

    @Test
    void aHostOnAProfileTheChangeDoesNotTouchHearsNothing() throws Exception {
        gateway = Gateway.start(new GatewayConfig(Optional.empty(), List.of(TestGateways.fake("one"), TestGateways.fake("two")),
                List.of(), Optional.empty(), Limits.DEFAULTS, Optional.empty(), new Profiles(Profile.WHOLE, Map.of(
                "review", new Profile("review", List.of("one"), CatalogueFilter.NONE, Profile.Search.OFF),
                "ops", new Profile("ops", List.of("two"), CatalogueFilter.NONE, Profile.Search.OFF)))),
                TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        await().atMost(Duration.ofSeconds(30)).until(() -> gateway.catalogue().tool("one__echo").isPresent()
                && gateway.catalogue().tool("two__echo").isPresent());
        URI review = front.mcpUri().resolve("/mcp/review");

        HttpHost legacyReview = HttpHost.legacy(review);
        Queue<String> legacyReviewLines = legacyStream(legacyReview);
        Queue<String> modernReviewLines = modernListen(review);
        stdioReview = stdioHost("review");
        HttpHost legacyOps = HttpHost.legacy(front.mcpUri().resolve("/mcp/ops"));
        Queue<String> legacyOpsLines = legacyStream(legacyOps);
        HttpHost legacyWhole = HttpHost.legacy(front.mcpUri());
        Queue<String> legacyWholeLines = legacyStream(legacyWhole);
        // a change from the start-up may still be on its way: what counts comes after the call
        List<Queue<String>> streams = List.of(legacyReviewLines, modernReviewLines, legacyOpsLines, legacyWholeLines);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(30)).until(() -> {
            boolean quiet = streams.stream().allMatch(lines -> lines.stream().noneMatch(line -> line.contains(TOOLS_CHANGED)))
                    && stdioReview.nextNotification(Duration.ofMillis(50)) == null;
            streams.forEach(Queue::clear);
            return quiet;
        });

        assertThat(legacyOps.call("two__add_tool", Json.object().put("name", "fresh")).text()).isEqualTo("added");

        await().atMost(Duration.ofSeconds(20)).until(() -> legacyOpsLines.stream().anyMatch(line -> line.contains(TOOLS_CHANGED)));
        await().atMost(Duration.ofSeconds(20)).until(() -> legacyWholeLines.stream().anyMatch(line -> line.contains(TOOLS_CHANGED)));
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() ->
                legacyReviewLines.stream().noneMatch(line -> line.contains(TOOLS_CHANGED))
                        && modernReviewLines.stream().noneMatch(line -> line.contains(TOOLS_CHANGED)));
        JsonNode stdioHeard = stdioReview.nextNotification(Duration.ofMillis(500));
        assertThat(stdioHeard).as("the stdio host on review heard %s", stdioHeard).isNull();

        assertThat(legacyReview.call("one__add_tool", Json.object().put("name", "own")).text()).isEqualTo("added");

        await().atMost(Duration.ofSeconds(20)).until(() -> legacyReviewLines.stream().anyMatch(line -> line.contains(TOOLS_CHANGED)));
        await().atMost(Duration.ofSeconds(20)).until(() -> modernReviewLines.stream().anyMatch(line -> line.contains(TOOLS_CHANGED)));
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            JsonNode note = stdioReview.nextNotification(Duration.ofSeconds(1));
            return note != null && TOOLS_CHANGED.equals(note.path("method").asString());
        });
    }

    private Queue<String> legacyStream(HttpHost host) throws Exception {
        host.initialize();
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        host.client().sendAsync(HttpRequest.newBuilder(host.endpoint()).header("Accept", "text/event-stream")
                        .header("Mcp-Session-Id", host.sessionId()).GET().build(), HttpResponse.BodyHandlers.ofLines())
                .thenAcceptAsync(response -> response.body().forEach(lines::add), ON_VIRTUAL_THREAD);
        await().atMost(Duration.ofSeconds(20)).until(() -> lines.stream().anyMatch(line -> line.startsWith("id:")));
        return lines;
    }

    private Queue<String> modernListen(URI endpoint) {
        HttpHost modern = HttpHost.modern(endpoint);
        ObjectNode listen = Json.object();
        listen.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        listen.putObject("notifications").put("toolsListChanged", true);
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", "sub-1").put("method", "subscriptions/listen");
        body.set("params", listen);
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        modern.client().sendAsync(modern.builder(body, "subscriptions/listen").build(), HttpResponse.BodyHandlers.ofLines())
                .thenAcceptAsync(response -> response.body().forEach(lines::add), ON_VIRTUAL_THREAD);
        await().atMost(Duration.ofSeconds(20)).until(() ->
                lines.stream().anyMatch(line -> line.contains("notifications/subscriptions/acknowledged")));
        return lines;
    }

    private LineHost stdioHost(String profile) throws Exception {
        LineHost host = LineHost.ofStdioFront(gateway, profile);
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "test-host").put("version", "1");
        host.request("initialize", init);
        host.notify("notifications/initialized", null);
        return host;
    }
}

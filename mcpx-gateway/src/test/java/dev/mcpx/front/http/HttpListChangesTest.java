package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Hosts of both eras hear about catalogue changes on their listen streams. */
class HttpListChangesTest {

    /** Stream bodies are read on their own thread: a response already complete would block the test's. */
    private static final Executor ON_VIRTUAL_THREAD = task -> Thread.ofVirtual().start(task);

    private Gateway gateway;
    private HttpFront front;

    @AfterEach
    void stop() throws Exception {
        front.close();
        gateway.close();
    }

    @Test
    void legacyGetStreamsAndModernSubscriptionsBothHearListChanged() throws Exception {
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("one")), TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));

        HttpHost legacy = HttpHost.legacy(front.mcpUri());
        legacy.initialize();
        legacy.request("tools/list", null);
        BlockingQueue<String> legacyLines = new LinkedBlockingQueue<>();
        legacy.client().sendAsync(HttpRequest.newBuilder(front.mcpUri()).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", legacy.sessionId()).GET().build(), HttpResponse.BodyHandlers.ofLines())
                .thenAcceptAsync(response -> response.body().forEach(legacyLines::add), ON_VIRTUAL_THREAD);

        HttpHost modern = HttpHost.modern(front.mcpUri());
        ObjectNode listen = Json.object();
        listen.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        listen.putObject("notifications").put("toolsListChanged", true);
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", "sub-1").put("method", "subscriptions/listen");
        body.set("params", listen);
        BlockingQueue<String> modernLines = new LinkedBlockingQueue<>();
        modern.client().sendAsync(modern.builder(body, "subscriptions/listen").build(), HttpResponse.BodyHandlers.ofLines())
                .thenAcceptAsync(response -> response.body().forEach(modernLines::add), ON_VIRTUAL_THREAD);
        assertThat(awaitLine(modernLines, "notifications/subscriptions/acknowledged")).contains("\"sub-1\"");
        Thread.sleep(500);
        legacyLines.clear();
        modernLines.clear();

        gateway.reload(TestGateways.config(TestGateways.fake("one"), TestGateways.fake("two")));

        assertThat(awaitLine(legacyLines, "notifications/tools/list_changed")).isNotNull();
        assertThat(awaitLine(modernLines, "notifications/tools/list_changed"))
                .contains("io.modelcontextprotocol/subscriptionId").contains("\"sub-1\"");
    }

    @Test
    void aModernUpstreamsListChangeReachesHosts() throws Exception {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start()) {
            gateway = Gateway.start(TestGateways.config(TestGateways.withPrefix(
                    UpstreamConfig.of("modern", UpstreamEndpoint.Http.of(upstream.url().toString())), "mh")),
                    TestGateways.settings(), Map.of());
            front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
            HttpHost legacy = HttpHost.legacy(front.mcpUri());
            legacy.initialize();
            assertThat(legacy.request("tools/list", null).reply().toString()).doesNotContain("mh__fresh_tool");
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            legacy.client().sendAsync(HttpRequest.newBuilder(front.mcpUri()).header("Accept", "text/event-stream")
                    .header("Mcp-Session-Id", legacy.sessionId()).GET().build(), HttpResponse.BodyHandlers.ofLines())
                    .thenAcceptAsync(response -> response.body().forEach(lines::add), ON_VIRTUAL_THREAD);
            await().atMost(Duration.ofSeconds(10)).until(() -> upstream.openSubscriptions() >= 1);
            awaitLine(lines, "id:");
            // a list change from the start-up may still be on its way: what counts comes after the push
            lines.clear();

            upstream.putEchoTool("{\"name\": \"fresh_tool\", \"inputSchema\": {\"type\": \"object\"}}");
            upstream.pushToolsListChanged();

            assertThat(awaitLine(lines, "notifications/tools/list_changed")).isNotNull();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(legacy.request("tools/list", null).reply().toString()).contains("mh__fresh_tool"));
        }
    }

    /**
     * A modern (2026-07-28) stdio server says its tools changed only on a {@code subscriptions/listen}
     * (Python SDK 2.x and FastMCP 4 servers are such): the gateway keeps one open over stdio too, so
     * hosts hear list_changed and see the new tool instead of a catalogue stale for good.
     */
    @Test
    void aModernStdioUpstreamsNewToolReachesHosts() throws Exception {
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("py", "--era", "modern")), TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        HttpHost legacy = HttpHost.legacy(front.mcpUri());
        legacy.initialize();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(legacy.request("tools/list", null).reply().toString()).contains("py__echo"));
        assertThat(gateway.status().get(0).era()).isEqualTo("modern");
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        legacy.client().sendAsync(HttpRequest.newBuilder(front.mcpUri()).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", legacy.sessionId()).GET().build(), HttpResponse.BodyHandlers.ofLines())
                .thenAcceptAsync(response -> response.body().forEach(lines::add), ON_VIRTUAL_THREAD);
        awaitLine(lines, "id:");
        lines.clear();

        assertThat(legacy.call("py__add_tool", Json.object().put("name", "fresh")).text()).isEqualTo("added");

        assertThat(awaitLine(lines, "notifications/tools/list_changed")).isNotNull();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(legacy.request("tools/list", null).reply().toString()).contains("py__fresh"));
        assertThat(legacy.call("py__fresh", Json.object()).text()).isEqualTo("ran fresh");
    }

    /** 2026-07-28 stdio: a re-established connection must send subscriptions/listen again (subscriptions.md). */
    @Test
    void aRestartedModernStdioUpstreamIsListenedToAgain() throws Exception {
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("py", "--era", "modern")), TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        HttpHost legacy = HttpHost.legacy(front.mcpUri());
        legacy.initialize();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(Json.parse(legacy.call("py__stdin", Json.object()).text()).path("listens").asInt()).isEqualTo(1));

        assertThat(legacy.call("py__die", Json.object().put("code", 9)).errorCode()).isEqualTo(-32000);
        // the new child hears a listen again, without the host doing anything
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(gateway.status().get(0).restarts()).isGreaterThanOrEqualTo(1);
            assertThat(Json.parse(legacy.call("py__stdin", Json.object()).text()).path("listens").asInt()).isEqualTo(1);
        });
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        legacy.client().sendAsync(HttpRequest.newBuilder(front.mcpUri()).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", legacy.sessionId()).GET().build(), HttpResponse.BodyHandlers.ofLines())
                .thenAcceptAsync(response -> response.body().forEach(lines::add), ON_VIRTUAL_THREAD);
        awaitLine(lines, "id:");
        lines.clear();

        assertThat(legacy.call("py__add_tool", Json.object().put("name", "reborn")).text()).isEqualTo("added");
        assertThat(awaitLine(lines, "notifications/tools/list_changed")).isNotNull();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(legacy.request("tools/list", null).reply().toString()).contains("py__reborn"));
    }

    private static String awaitLine(BlockingQueue<String> lines, String containing) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(500, TimeUnit.MILLISECONDS);
            if (line != null && line.contains(containing)) {
                return line;
            }
        }
        throw new AssertionError("no line with " + containing + " among " + Stream.of(lines.toArray()).toList());
    }
}

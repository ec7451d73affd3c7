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
            Thread.sleep(500);
            lines.clear();

            upstream.putEchoTool("{\"name\": \"fresh_tool\", \"inputSchema\": {\"type\": \"object\"}}");
            upstream.pushToolsListChanged();

            assertThat(awaitLine(lines, "notifications/tools/list_changed")).isNotNull();
            assertThat(legacy.request("tools/list", null).reply().toString()).contains("mh__fresh_tool");
        }
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

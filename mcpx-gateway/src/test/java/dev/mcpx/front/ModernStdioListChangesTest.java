package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A modern (2026-07-28) stdio server says its tools changed only on a {@code subscriptions/listen}
 * (Python SDK 2.x and FastMCP 4 servers are such): the gateway keeps one open over stdio too, so
 * hosts hear list_changed and see the new tool instead of a catalogue stale for good.
 */
class ModernStdioListChangesTest {

    private Gateway gateway;
    private HttpFront front;

    @AfterEach
    void stop() throws Exception {
        front.close();
        gateway.close();
    }

    @Test
    void aModernStdioUpstreamsNewToolReachesHosts() throws Exception {
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("py", "--era", "modern")), TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(toolNames(host.request("tools/list", null).reply())).contains("py__echo"));
        assertThat(gateway.status().get(0).era()).isEqualTo("modern");
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        host.client().sendAsync(HttpRequest.newBuilder(front.mcpUri()).header("Accept", "text/event-stream")
                        .header("Mcp-Session-Id", host.sessionId()).GET().build(), HttpResponse.BodyHandlers.ofLines())
                .thenAcceptAsync(response -> response.body().forEach(lines::add), task -> Thread.ofVirtual().start(task));
        await().atMost(Duration.ofSeconds(10)).until(() -> lines.stream().anyMatch(line -> line.startsWith("id:")));

        assertThat(host.call("py__add_tool", Json.object().put("name", "fresh")).text()).isEqualTo("added");

        await().atMost(Duration.ofSeconds(20)).until(() ->
                lines.stream().anyMatch(line -> line.contains("notifications/tools/list_changed")));
        assertThat(toolNames(host.request("tools/list", null).reply())).contains("py__fresh");
        assertThat(host.call("py__fresh", Json.object()).text()).isEqualTo("ran fresh");
    }

    private static List<String> toolNames(JsonNode reply) {
        List<String> names = new ArrayList<>();
        reply.path("result").path("tools").forEach(tool -> names.add(tool.path("name").asString()));
        return names;
    }
}

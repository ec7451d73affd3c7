package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A legacy HTTP host hears an upstream's own log lines (sent outside any call) on its listen
 * stream (GET), at or above the level it set; the line does not ride on a call's answer.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UpstreamSessionLogsOverHttpTest {

    private Gateway gateway;
    private HttpFront front;

    @AfterEach
    void stop() throws Exception {
        front.close();
        gateway.close();
    }

    @Test
    void aLegacyHostHearsTheLineOnItsListenStreamAtOrAboveItsLevel() throws Exception {
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("fake")), TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        await().atMost(Duration.ofSeconds(30)).until(() -> gateway.catalogue().tool("fake__echo").isPresent());
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        assertThat(host.request("logging/setLevel", Json.object().put("level", "warning")).status()).isEqualTo(200);
        Queue<String> stream = new ConcurrentLinkedQueue<>();
        host.client().sendAsync(HttpRequest.newBuilder(host.endpoint()).header("Accept", "text/event-stream")
                        .header("Mcp-Session-Id", host.sessionId()).GET().build(), HttpResponse.BodyHandlers.ofLines())
                .thenAcceptAsync(response -> response.body().forEach(stream::add), task -> Thread.ofVirtual().start(task));
        await().atMost(Duration.ofSeconds(20)).until(() -> stream.stream().anyMatch(line -> line.startsWith("id:")));

        HttpHost.Exchange quiet = host.call("fake__echo", Json.object().put("text", "quiet").put("logAfter", "info"));
        HttpHost.Exchange loud = host.call("fake__echo", Json.object().put("text", "loud").put("logAfter", "critical"));
        assertThat(quiet.text()).isEqualTo("Echo: quiet");
        assertThat(loud.text()).isEqualTo("Echo: loud");
        assertThat(loud.body()).doesNotContain("notifications/message");

        await().atMost(Duration.ofSeconds(20)).until(() -> stream.stream().anyMatch(line -> line.contains("after loud")));
        assertThat(stream).filteredOn(line -> line.contains("notifications/message")).singleElement().asString()
                .contains("\"level\":\"critical\"").contains("\"logger\":\"fake\"");
    }
}

package dev.mcpx.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.FrontToken;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.Limits;
import dev.mcpx.config.TelemetryOptions;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code GET /metrics} on the HTTP front: a monitoring token reaches it, a refused oversized
 * message is counted, and {@code mcpx.metrics: false} turns it off.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MetricsEndpointTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private static GatewayConfig config(boolean metrics) {
        return new GatewayConfig(Optional.empty(), List.of(), List.of(), Optional.empty(),
                new Limits(1024, 1024, 8192, 64, Duration.ofSeconds(60)), Optional.empty(),
                new TelemetryOptions(metrics, Optional.empty(), false));
    }

    private HttpResponse<String> get(URI uri, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aMonitoringTokenReadsTheMetricsAndRefusalsAreCounted() throws Exception {
        HttpSecurity security = new HttpSecurity(List.of(new FrontToken("all", "s3cret", FrontToken.Scope.ALL),
                new FrontToken("prometheus", "look-only", FrontToken.Scope.MONITOR)), Optional.empty(), false);
        try (Gateway gateway = Gateway.start(config(true), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), security, Duration.ofMillis(200))) {
            URI metrics = front.mcpUri().resolve("/metrics");
            assertThat(get(metrics, null).statusCode()).isEqualTo(401);
            HttpResponse<String> tooBig = http.send(HttpRequest.newBuilder(front.mcpUri())
                    .header("Authorization", "Bearer s3cret").header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\""
                            + "x".repeat(2000) + "\"}}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(tooBig.statusCode()).isEqualTo(413);

            HttpResponse<String> scraped = get(metrics, "look-only");
            assertThat(scraped.statusCode()).isEqualTo(200);
            assertThat(scraped.body()).contains("mcpx_limit_refusals_total{limit=\"maxMessageBytes\"} 1.0")
                    .contains("mcpx_sse_replayed_events_total 0.0")
                    .contains("# TYPE mcpx_held_calls gauge");
        }
    }

    @Test
    void metricsCanBeTurnedOff() throws Exception {
        try (Gateway gateway = Gateway.start(config(false), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            HttpResponse<String> scraped = get(front.mcpUri().resolve("/metrics"), null);
            assertThat(scraped.statusCode()).isEqualTo(404);
            assertThat(scraped.body()).contains("mcpx.metrics");
        }
    }

    @Test
    void sessionDurationsAreRecordedWhenAHostSessionAndAnUpstreamSessionEnd() throws Exception {
        GatewayConfig config = new GatewayConfig(Optional.empty(), List.of(TestGateways.fake("fake")), List.of(),
                Optional.empty(), Limits.DEFAULTS, Optional.empty(), new TelemetryOptions(true, Optional.empty(), false));
        try (Gateway gateway = Gateway.start(config, TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.legacy(front.mcpUri());
            host.initialize();
            HttpResponse<String> deleted = host.raw(HttpRequest.newBuilder(front.mcpUri()).DELETE()
                    .header("Mcp-Session-Id", host.sessionId()).header("MCP-Protocol-Version", "2025-11-25").build());
            assertThat(deleted.statusCode()).isLessThan(300);
            assertThat(get(front.mcpUri().resolve("/metrics"), null).body()).contains(
                    "mcp_server_session_duration_seconds_count{mcp_protocol_version=\"2025-11-25\",network_transport=\"tcp\"} 1");

            HttpHost caller = HttpHost.legacy(front.mcpUri());
            caller.initialize();
            caller.call("fake__die", Json.object());
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(get(front.mcpUri().resolve("/metrics"),
                    null).body()).containsPattern("mcp_client_session_duration_seconds_count\\{mcp_protocol_version=\"[^\"]+\","
                    + "mcpx_transport=\"stdio\",mcpx_upstream=\"fake\"} 1"));
        }
    }
}

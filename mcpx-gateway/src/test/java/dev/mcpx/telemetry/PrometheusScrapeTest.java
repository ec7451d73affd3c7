package dev.mcpx.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.chaos.SilentCloses.When;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real Prometheus scrapes the HTTP front's {@code /metrics}: a call made through mcpx comes
 * back as both semantic-convention histograms, and the recovery counters move when the
 * upstream restarts (its sessions forgotten), when a response is lost and re-issued, and when a
 * stdio child dies and is restarted.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PrometheusScrapeTest {

    private static final Duration SCRAPED = Duration.ofSeconds(60);

    @Test
    void prometheusGetsTheHistogramsOfACallAndTheRecoveryCountersMove() throws Exception {
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             Gateway gateway = Gateway.start(TestGateways.config(
                     UpstreamConfig.of("remote", UpstreamEndpoint.Http.of(legacy.url().toString())),
                     TestGateways.fake("local")), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200));
             PrometheusServer prometheus = PrometheusServer.scraping("127.0.0.1:" + front.port(), "/metrics")) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.modern(front.mcpUri());
            // a child slow to start on a loaded machine is retried: its tools come once it is up
            await().atMost(SCRAPED).untilAsserted(() -> assertThat(host.request("tools/list", null).body())
                    .contains("remote__echo", "local__die"));
            assertThat(host.call("remote__echo", Json.object().put("text", "measured")).text()).isEqualTo("measured");

            await().atMost(SCRAPED).untilAsserted(() -> assertThat(prometheus.sum(
                    "mcp_client_operation_duration_seconds_count{mcpx_upstream=\"remote\",mcp_method_name=\"tools/call\","
                            + "gen_ai_tool_name=\"echo\",error_type=\"\",network_transport=\"tcp\"}"))
                    .as("the client histogram in Prometheus; targets: %s", prometheus.targetHealth()).isEqualTo(1));
            assertThat(prometheus.sum("mcp_server_operation_duration_seconds_count{mcp_method_name=\"tools/call\","
                    + "gen_ai_tool_name=\"remote__echo\",mcp_protocol_version=\"2026-07-28\",network_transport=\"tcp\"}"))
                    .isEqualTo(1);
            assertThat(prometheus.sum("mcp_client_operation_duration_seconds_bucket{mcpx_upstream=\"remote\",le=\"+Inf\"}"))
                    .isEqualTo(1);
            assertThat(prometheus.sum("mcpx_upstream_state{mcpx_upstream=\"remote\",state=\"up\"}")).isEqualTo(1);
            assertThat(prometheus.sum("mcpx_reinitializations_total{mcpx_upstream=\"remote\"}")).isZero();

            legacy.restart();
            assertThat(host.call("remote__echo", Json.object().put("text", "after")).text()).isEqualTo("after");
            legacy.closeWithoutAnswer("echo", 1, When.BEFORE_RUNNING);
            assertThat(host.call("remote__echo", Json.object().put("text", "again")).text()).isEqualTo("again");
            host.call("local__die", Json.object().put("code", 3));
            await().atMost(SCRAPED).untilAsserted(() -> {
                // the restart is noticed by the call or by the upstream's listen stream first: one re-initialize either way
                assertThat(prometheus.sum("mcpx_reinitializations_total{mcpx_upstream=\"remote\"}")).isEqualTo(1);
                assertThat(prometheus.sum("mcpx_reissues_total{mcpx_upstream=\"remote\"}")).isEqualTo(1);
                assertThat(prometheus.sum("mcpx_call_recoveries_total{mcpx_upstream=\"remote\",recovery=\"reissue\"}"))
                        .isEqualTo(1);
                assertThat(prometheus.sum("mcpx_upstream_restarts_total{mcpx_upstream=\"local\",mcpx_transport=\"stdio\"}"))
                        .isGreaterThanOrEqualTo(1);
                assertThat(prometheus.sum("mcp_client_operation_duration_seconds_count{mcpx_upstream=\"local\","
                        + "gen_ai_tool_name=\"die\",network_transport=\"pipe\"}")).isEqualTo(1);
            });
            assertThat(prometheus.sum("mcp_client_operation_duration_seconds_count{mcpx_upstream=\"local\","
                    + "gen_ai_tool_name=\"die\",error_type=\"\"}")).as("the call whose child died failed").isZero();
        }
    }
}

package dev.mcpx.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.Limits;
import dev.mcpx.config.TelemetryOptions;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code mcpx.audit}: one JSON line per host request that reached an upstream, with the recovery
 * it took; arguments and results only when the operator opted in; a request answered by mcpx
 * itself (a list) writes none.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AuditLogTest {

    private static List<JsonNode> lines(Path file) throws Exception {
        return Files.readAllLines(file).stream().map(Json::parse).toList();
    }

    private static GatewayConfig config(LegacyHttpUpstream legacy, TelemetryOptions.Audit audit) {
        return new GatewayConfig(Optional.empty(), List.of(UpstreamConfig.of("remote",
                UpstreamEndpoint.Http.of(legacy.url().toString()))), List.of(), Optional.empty(), Limits.DEFAULTS,
                Optional.empty(), new TelemetryOptions(true, Optional.of(audit), false));
    }

    @Test
    void eachRoutedCallIsOneLineWithItsOutcomeAndRecoveryAndNoArguments(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("audit.jsonl");
        Instant before = Instant.now();
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             Gateway gateway = Gateway.start(config(legacy, new TelemetryOptions.Audit(Optional.of(file), false, false)),
                     TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.legacy(front.mcpUri());
            host.initialize();
            assertThat(host.request("tools/list", null).body()).contains("remote__echo");
            assertThat(host.call("remote__echo", Json.object().put("text", "secret-ish")).text()).isEqualTo("secret-ish");
            legacy.closeWithoutAnswer("echo", 1, dev.mcpx.testkit.chaos.SilentCloses.When.BEFORE_RUNNING);
            assertThat(host.call("remote__echo", Json.object().put("text", "again")).text()).isEqualTo("again");
            assertThat(host.call("remote__nope", Json.object()).reply().has("error")).isTrue();
        }
        List<JsonNode> lines = lines(file);
        assertThat(lines).as("two calls reached the upstream; the list and the unknown tool did not").hasSize(2);
        JsonNode first = lines.get(0);
        assertThat(Instant.parse(first.path("time").asString())).isAfterOrEqualTo(before.minusSeconds(1));
        assertThat(first.path("upstream").asString()).isEqualTo("remote");
        assertThat(first.path("method").asString()).isEqualTo("tools/call");
        assertThat(first.path("tool").asString()).isEqualTo("echo");
        assertThat(first.path("outcome").asString()).isEqualTo("ok");
        assertThat(first.path("durationMs").asDouble()).isPositive();
        assertThat(first.path("recoveries")).isEmpty();
        assertThat(first.path("hostSession").asString()).isNotBlank();
        assertThat(Files.readString(file)).doesNotContain("secret-ish").doesNotContain("\"arguments\"");
        assertThat(lines.get(1).path("recoveries").get(0).asString()).isEqualTo("reissue");
        assertThat(lines.get(1).path("hostSession").asString()).isEqualTo(first.path("hostSession").asString());
    }

    @Test
    void theOperatorMayOptInToArgumentsAndResults(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("audit.jsonl");
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             Gateway gateway = Gateway.start(config(legacy, new TelemetryOptions.Audit(Optional.of(file), true, true)),
                     TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.modern(front.mcpUri());
            assertThat(host.call("remote__echo", Json.object().put("text", "shown")).text()).isEqualTo("shown");
        }
        JsonNode line = lines(file).get(0);
        assertThat(line.path("arguments").path("text").asString()).isEqualTo("shown");
        assertThat(line.path("result").path("content").path(0).path("text").asString()).isEqualTo("shown");
        assertThat(line.path("hostSession").isNull()).as("a modern host has no session").isTrue();
    }
}

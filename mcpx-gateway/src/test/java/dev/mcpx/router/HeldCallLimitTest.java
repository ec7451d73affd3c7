package dev.mcpx.router;

import static dev.mcpx.router.BridgeHosts.capabilities;
import static dev.mcpx.router.BridgeHosts.elicitationAnswer;
import static dev.mcpx.router.BridgeHosts.modernCall;
import static dev.mcpx.router.BridgeHosts.retry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.conformance.ConformanceUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Held calls are capped: past the cap the upstream's ask is refused and the host gets a clear error. */
class HeldCallLimitTest {

    @Test
    void pastTheCapACallIsNotHeldAndItsHostGetsAClearError() throws Exception {
        try (ConformanceUpstream legacy = ConformanceUpstream.start(0, ConformanceUpstream.Eras.LEGACY_ONLY);
             Gateway gateway = Gateway.start(TestGateways.config(TestGateways.withPrefix(
                             UpstreamConfig.of("legacy", UpstreamEndpoint.Http.of(legacy.url().toString())), "l")),
                     TestGateways.settings().withHeldCalls(new HeldCalls.Limits(Duration.ofMinutes(5), 1)), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            assertThat(gateway.pool().require("legacy").status().era()).isEqualTo("legacy");
            HttpHost host = HttpHost.modern(front.mcpUri());
            ObjectNode first = modernCall(1, "l__test_elicitation", capabilities("elicitation"), null);
            JsonNode held = host.send(first, "tools/call").reply().path("result");
            assertThat(held.path("resultType").asString()).isEqualTo("input_required");
            assertThat(gateway.hostRequests().heldCallCount()).isEqualTo(1);

            Exchange refused = host.send(modernCall(2, "l__test_elicitation", capabilities("elicitation"), null), "tools/call");
            assertThat(refused.reply().path("result").path("resultType").asString()).isNotEqualTo("input_required");
            assertThat(refused.reply().toString()).contains("too many");
            assertThat(gateway.hostRequests().heldCallCount()).isEqualTo(1);

            ObjectNode answers = Json.object();
            answers.set(held.path("inputRequests").propertyNames().iterator().next(), elicitationAnswer("username", "first"));
            assertThat(host.send(retry(first, 3, answers, held.get("requestState")), "tools/call").text()).contains("first");
            assertThat(gateway.hostRequests().heldCallCount()).isZero();
            await().atMost(Duration.ofSeconds(60)).until(() -> gateway.pool().require("legacy").pendingRequests() == 0);
        }
    }
}

package dev.mcpx.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.client.RequestOptions;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * A call that arrives while its upstream restarts waits for it, and that wait spends the call's
 * one timeout: the client gets what is left, not a fresh timeout of its own (which made such a
 * call cost about twice the configured time).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RestartDeadlineTest {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(4);

    @Test
    void aCallThatWaitsForARestartingChildIsAnsweredWithinItsOneTimeout() throws Exception {
        UpstreamConfig fake = TestGateways.fake("slow", "--start-delay", "3000");
        UpstreamConfig config = new UpstreamConfig(fake.name(), fake.endpoint(), fake.prefix(), fake.reissue(),
                REQUEST_TIMEOUT, Duration.ofSeconds(60), true);
        try (Gateway gateway = Gateway.start(TestGateways.config(config), TestGateways.settings(), Map.of())) {
            Upstream upstream = gateway.pool().require("slow");
            await().atMost(Duration.ofSeconds(60)).until(() -> upstream.state() == UpstreamState.UP);
            long restartsBefore = upstream.status().restarts();
            assertThatThrownBy(() -> upstream.request("tools/call", call("die", Json.object()), RequestOptions.defaults()))
                    .isInstanceOf(McpException.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> upstream.status().restarts() > restartsBefore);

            long start = System.nanoTime();
            assertThatThrownBy(() -> upstream.request("tools/call", call("sleep", Json.object().put("ms", 20_000)),
                    RequestOptions.defaults())).isInstanceOf(McpException.class);
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            // the child takes 3 s or more to come back, then the call would sleep 20 s: it ends at its 4 s
            assertThat(took).as("one timeout for the wait and the call together").isLessThan(REQUEST_TIMEOUT.plusSeconds(2));
        }
    }

    private static ObjectNode call(String tool, ObjectNode arguments) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        return params;
    }
}

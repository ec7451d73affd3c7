package dev.mcpx.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stdio child that stops reading stdin: the gateway's writes fill the pipe. The caller whose
 * write cannot complete gets an error by its deadline, the child is killed as broken and the pool
 * restarts it, as after a crash.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DeafChildTest {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);

    @Test
    void aWriteToAChildThatStoppedReadingFailsInBoundedTimeAndTheChildIsRestarted() throws Exception {
        UpstreamConfig fake = TestGateways.fake("fake");
        UpstreamConfig quick = new UpstreamConfig(fake.name(), fake.endpoint(), fake.prefix(), fake.reissue(),
                REQUEST_TIMEOUT, fake.startTimeout(), true);
        try (Gateway gateway = Gateway.start(TestGateways.config(quick), TestGateways.settings(), Map.of());
             LineHost host = connect(gateway)) {
            initialize(host);
            // the child's first initialize has the short request timeout too: a loaded machine can need a retry
            await().atMost(Duration.ofSeconds(60)).until(() -> "up".equals(status(gateway).state()));
            long pidBefore = pid(gateway);

            JsonNode deaf = host.request("tools/call", call("fake__echo", Json.object().put("text", "last").put("chaos", "deaf")));
            assertThat(deaf.path("result").path("content").get(0).path("text").asString()).isEqualTo("Echo: last");

            // more than a pipe holds (64 KiB on Linux): the write blocks until the deadline
            long start = System.nanoTime();
            JsonNode stuck = host.request("tools/call", call("fake__echo", Json.object().put("text", "x".repeat(512 * 1024))));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(stuck.path("error").path("code").asInt()).isEqualTo(-32000);
            assertThat(stuck.path("error").path("message").asString()).contains("stopped reading its stdin");
            assertThat(took).isLessThan(REQUEST_TIMEOUT.multipliedBy(8));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                UpstreamStatus status = status(gateway);
                assertThat(status.restarts()).isGreaterThanOrEqualTo(1);
                assertThat(status.state()).isEqualTo("up");
            });
            assertThat(pid(gateway)).isNotEqualTo(pidBefore);
            JsonNode again = host.request("tools/call", call("fake__echo", Json.object().put("text", "again")));
            assertThat(again.path("result").path("content").get(0).path("text").asString()).isEqualTo("Echo: again");
        }
    }

    private static UpstreamStatus status(Gateway gateway) {
        return gateway.status().stream().filter(s -> s.name().equals("fake")).findFirst().orElseThrow();
    }

    private static long pid(Gateway gateway) {
        return status(gateway).pid() == null ? -1 : status(gateway).pid();
    }

    private static LineHost connect(Gateway gateway) throws Exception {
        return LineHost.ofStdioFront(gateway);
    }

    private static void initialize(LineHost host) throws Exception {
        ObjectNode params = Json.object().put("protocolVersion", "2025-06-18");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "test-host").put("version", "1");
        host.request("initialize", params);
        host.notify("notifications/initialized", null);
        host.request("tools/list", null);
    }

    private static ObjectNode call(String tool, ObjectNode arguments) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        return params;
    }
}

package dev.mcpx.front.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.conformance.ConformanceUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A host that closes stdin has sent all it will, and may still read: the requests it sent are
 * answered first (what {@code echo REQUEST | mcpx serve --stdio} relies on), and what waits for a
 * message from it gives up at once rather than at its timeout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StdioInputEndTest {

    private ConformanceUpstream asking;
    private Gateway gateway;
    private LineHost host;

    @BeforeAll
    void startGateway() throws Exception {
        asking = ConformanceUpstream.start(0, ConformanceUpstream.Eras.LEGACY_ONLY);
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("fake"),
                TestGateways.withPrefix(UpstreamConfig.of("asking", UpstreamEndpoint.Http.of(asking.url().toString())), "a")),
                TestGateways.settings(), Map.of());
        gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
    }

    @AfterAll
    void stopGateway() throws Exception {
        gateway.close();
        asking.close();
    }

    @BeforeEach
    void connectHost() throws Exception {
        host = LineHost.ofStdioFront(gateway);
        ObjectNode params = Json.object().put("protocolVersion", "2025-11-25");
        params.putObject("capabilities").putObject("sampling");
        params.putObject("clientInfo").put("name", "closing-host").put("version", "1");
        host.request("initialize", params);
        host.notify("notifications/initialized", null);
    }

    @AfterEach
    void disconnectHost() throws Exception {
        host.close();
    }

    private static ObjectNode call(String tool, ObjectNode arguments) {
        return Json.object().put("name", tool).set("arguments", arguments);
    }

    private static String text(JsonNode reply) {
        return reply.path("result").path("content").path(0).path("text").asString();
    }

    @Test
    void requestsSentBeforeStdinClosedAreAllAnsweredNotCancelled() throws Exception {
        String slow = host.send("tools/call", call("fake__sleep", Json.object().put("ms", 1_500)));
        String quick = host.send("tools/call", call("fake__echo", Json.object().put("text", "last words")));
        host.close();

        assertThat(text(host.reply(slow, Duration.ofSeconds(60)))).isEqualTo("slept");
        assertThat(text(host.reply(quick, Duration.ofSeconds(60)))).isEqualTo("Echo: last words");
    }

    @Test
    void anUpstreamsRequestTheHostCanNoLongerAnswerFailsAtOnceAndItsCallIsAnswered() throws Exception {
        String id = host.send("tools/call", call("a__test_sampling", Json.object().put("prompt", "hello?")));
        JsonNode asked = host.nextNotification(Duration.ofSeconds(60));
        assertThat(asked).as("the upstream's sampling request reached the host").isNotNull();
        assertThat(asked.path("method").asString()).isEqualTo("sampling/createMessage");
        host.close();

        // it would wait five minutes for the host's answer if it did not know the host can send none
        JsonNode reply = host.reply(id, Duration.ofSeconds(30));
        assertThat(reply.toString()).contains("closed stdin");
    }
}

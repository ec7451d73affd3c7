package dev.mcpx.front.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.front.CallLimit;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A stdio host that sends junk, or too many calls at once, gets JSON-RPC errors and keeps its session. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StdioFrontLimitsTest {

    private Gateway gateway;
    private LineHost host;

    @BeforeAll
    void startGateway() {
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("fake")), TestGateways.settings(), Map.of());
    }

    @AfterAll
    void stopGateway() {
        gateway.close();
    }

    @BeforeEach
    void connectHost() throws Exception {
        host = LineHost.ofStdioFront(gateway);
        ObjectNode params = Json.object().put("protocolVersion", "2025-11-25");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "limits-host").put("version", "1");
        assertThat(host.request("initialize", params).has("result")).isTrue();
        host.notify("notifications/initialized", null);
    }

    @AfterEach
    void disconnectHost() throws Exception {
        host.close();
    }

    @Test
    void junkLinesGetErrorsAndTheHostKeepsItsSession() throws Exception {
        host.writeRaw("this is not json {");
        JsonNode notJson = host.reply("null", Duration.ofSeconds(10));
        assertThat(notJson.path("error").path("code").asInt()).isEqualTo(-32700);

        host.writeRaw("{\"jsonrpc\": \"1.0\", \"id\": 77, \"method\": \"ping\"}");
        JsonNode wrongVersion = host.reply("77", Duration.ofSeconds(10));
        assertThat(wrongVersion.path("error").path("code").asInt()).isEqualTo(-32600);

        assertThat(host.request("ping", null).has("result")).isTrue();
    }

    /** JSON-RPC 2.0: -32700 only for text that does not parse; valid JSON that is no request is -32600. */
    @ParameterizedTest
    @ValueSource(strings = {"[]", "[1, 2]", "42", "\"ping\"", "null", "{\"jsonrpc\": \"1.0\", \"method\": \"ping\"}",
            "{\"jsonrpc\": \"2.0\"}", "{\"method\": \"ping\"}"})
    void validJsonThatIsNoRequestIsAnInvalidRequestNotAParseError(String line) throws Exception {
        host.writeRaw(line);
        JsonNode refused = host.reply("null", Duration.ofSeconds(10));

        assertThat(refused.path("error").path("code").asInt()).isEqualTo(ErrorCodes.INVALID_REQUEST);
        assertThat(host.request("ping", null).has("result")).isTrue();
    }

    @Test
    void aCallOverTheHostsLimitIsRefusedAtOnceAndTheOthersComplete() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> host.request("tools/list", null).toString().contains("fake__sleep"));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < CallLimit.DEFAULT_PER_HOST; i++) {
            ids.add(host.send("tools/call", sleep(6_000)));
        }
        await().atMost(Duration.ofSeconds(20))
                .until(() -> gateway.pool().require("fake").pendingRequests() == CallLimit.DEFAULT_PER_HOST);

        JsonNode refused = host.reply(host.send("tools/call", sleep(1)), Duration.ofSeconds(3));
        assertThat(refused.path("error").path("code").asInt()).isEqualTo(ErrorCodes.TOO_MANY_CALLS);

        for (String id : ids) {
            assertThat(host.reply(id, Duration.ofSeconds(30)).has("result")).isTrue();
        }
        assertThat(host.request("tools/call", sleep(1)).has("result")).isTrue();
    }

    private static ObjectNode sleep(long ms) {
        ObjectNode params = Json.object().put("name", "fake__sleep");
        params.putObject("arguments").put("ms", ms);
        return params;
    }
}

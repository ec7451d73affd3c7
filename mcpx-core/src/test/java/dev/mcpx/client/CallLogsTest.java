package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.conformance.ConformanceUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A call's {@code notifications/message} lines reach that call's {@link RequestOptions#logs}, in both eras. */
class CallLogsTest {

    private static McpClient client(ConformanceUpstream upstream) {
        return McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("logs").requestTimeout(Duration.ofSeconds(30)).build().connect();
    }

    private static ObjectNode loggingCall(String logLevel) {
        ObjectNode params = Json.object().put("name", "test_tool_with_logging");
        params.putObject("arguments");
        if (logLevel != null) {
            params.putObject("_meta").put("io.modelcontextprotocol/logLevel", logLevel);
        }
        return params;
    }

    @Test
    void aModernUpstreamsLogLinesOnTheCallsStreamReachThatCall() {
        try (ConformanceUpstream upstream = ConformanceUpstream.start(); McpClient client = client(upstream)) {
            assertThat(client.server().era()).isEqualTo(Era.MODERN);
            List<ObjectNode> heard = new CopyOnWriteArrayList<>();
            JsonNode result = client.request("tools/call", loggingCall("debug"), RequestOptions.defaults().withLogs(heard::add));
            assertThat(result.path("content").path(0).path("text").asString()).isEqualTo("Tool with logging executed successfully");
            assertThat(heard).extracting(line -> line.path("data").asString())
                    .containsExactly("Tool execution started", "Tool processing data", "Tool execution completed");
            assertThat(client.pendingCount()).isZero();
        }
    }

    @Test
    void aLegacyUpstreamsLogLinesOnTheCallsPostStreamReachThatCall() {
        try (ConformanceUpstream upstream = ConformanceUpstream.start(0, ConformanceUpstream.Eras.LEGACY_ONLY);
             McpClient client = client(upstream)) {
            assertThat(client.server().era()).isEqualTo(Era.LEGACY);
            List<ObjectNode> heard = new CopyOnWriteArrayList<>();
            client.request("tools/call", loggingCall(null), RequestOptions.defaults().withLogs(heard::add));
            assertThat(heard).hasSize(3);
            // another call without a listener hears nothing, and the lines of this one are not replayed
            List<ObjectNode> other = new CopyOnWriteArrayList<>();
            client.request("tools/call", Json.object().put("name", "test_simple_text"),
                    RequestOptions.defaults().withLogs(other::add));
            assertThat(other).isEmpty();
        }
    }
}

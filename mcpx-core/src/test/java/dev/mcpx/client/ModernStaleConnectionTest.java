package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.testkit.chaos.SilentCloses.When;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.testkit.modern.RecordedRequest;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * A modern upstream closes the connection a POST came on without one byte of response: the
 * request is re-issued once with a new id when a repeat is harmless, as for a broken stream.
 */
class ModernStaleConnectionTest {

    private ModernHttpUpstream upstream;
    private McpClient client;

    @BeforeEach
    void start() {
        upstream = ModernHttpUpstream.start();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        upstream.close();
        assertThat(upstream.headerMismatches()).as(upstream.mismatchReasons().toString()).isZero();
        assertThat(upstream.violations()).isEmpty();
    }

    private McpClient connect() {
        client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("modern").requestTimeout(Duration.ofSeconds(20)).eraCache(EraCache.create(Duration.ZERO))
                .build().connect();
        return client;
    }

    private JsonNode call(String tool) {
        return client.callTool(tool, Json.object().put("text", "hi"), RequestOptions.defaults());
    }

    private List<JsonNode> ids(String rpcMethod) {
        return upstream.requests().stream().filter(r -> rpcMethod.equals(r.rpcMethod())).map(RecordedRequest::id).toList();
    }

    private long reissues() {
        return client.counters().snapshot().reissues();
    }

    @ParameterizedTest
    @EnumSource(When.class)
    void aReadOnlyToolThatGotNoResponseIsReissuedWithANewId(When when) {
        connect();
        client.listTools();
        upstream.closeWithoutAnswer("read_only_tool", 1, when);

        JsonNode result = call("read_only_tool");

        int runs = when == When.AFTER_RUNNING ? 2 : 1;
        assertThat(result.path("content").path(0).path("text").asString()).isEqualTo("read_only_tool execution " + runs);
        assertThat(upstream.executions("read_only_tool")).isEqualTo(runs);
        assertThat(upstream.requestIds("read_only_tool")).hasSize(2);
        assertThat(new HashSet<>(upstream.requestIds("read_only_tool"))).hasSize(2);
        assertThat(reissues()).isEqualTo(1);
        assertThat(upstream.silentCloses().closedOnKeptAliveConnections()).isEqualTo(1);
    }

    @Test
    void toolsListThatGotNoResponseIsReissued() {
        connect();
        upstream.closeWithoutAnswer("tools/list", 1, When.BEFORE_RUNNING);

        assertThat(client.listTools()).extracting(tool -> tool.name()).contains("read_only_tool", "destructive_tool");

        assertThat(ids("tools/list")).hasSize(2);
        assertThat(new HashSet<>(ids("tools/list"))).hasSize(2);
        assertThat(upstream.calls("tools/list")).as("the first never reached the dispatcher").isEqualTo(1);
        assertThat(reissues()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(When.class)
    void aDestructiveToolIsNotReissuedAndTheCallerGetsTheLoss(When when) {
        connect();
        client.listTools();
        upstream.closeWithoutAnswer("destructive_tool", 1, when);

        assertThatThrownBy(() -> call("destructive_tool"))
                .isInstanceOfSatisfying(StreamLostException.class, lost -> assertThat(lost.noResponse()).isTrue());

        assertThat(upstream.executions("destructive_tool")).isEqualTo(when == When.AFTER_RUNNING ? 1 : 0);
        assertThat(upstream.requestIds("destructive_tool")).hasSize(1);
        assertThat(reissues()).isZero();
    }

    @Test
    void noResponseTwiceFailsAfterExactlyTwoAttempts() {
        connect();
        client.listTools();
        upstream.closeWithoutAnswer("idempotent_tool", 2, When.AFTER_RUNNING);

        assertThatThrownBy(() -> call("idempotent_tool")).isInstanceOf(StreamLostException.class);

        assertThat(upstream.requestIds("idempotent_tool")).hasSize(2);
        assertThat(upstream.executions("idempotent_tool")).isEqualTo(2);
        assertThat(reissues()).isEqualTo(1);
    }

    @Test
    void aDiscoverProbeThatGotNoResponseIsSentOnceMore() {
        upstream.closeWithoutAnswer("server/discover", 1, When.BEFORE_RUNNING);

        connect();

        assertThat(client.server().era()).isEqualTo(Era.MODERN);
        assertThat(ids("server/discover")).hasSize(2);
        assertThat(new HashSet<>(ids("server/discover"))).hasSize(2);
        assertThat(reissues()).isEqualTo(1);
    }
}

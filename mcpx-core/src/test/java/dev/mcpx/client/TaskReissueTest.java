package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Recovery Phase 2 for the tasks extension's requests: {@code tasks/get} is a read and
 * {@code tasks/cancel} idempotent by the extension's definition, so a broken stream re-issues
 * them once; {@code tasks/update} delivers input and is never sent twice. Every task request
 * mirrors its task id into {@code Mcp-Name} (the fake rejects it otherwise).
 */
class TaskReissueTest {

    private static final String TASK = "task-7";

    private ModernHttpUpstream upstream;
    private McpClient client;

    @BeforeEach
    void start() {
        upstream = ModernHttpUpstream.start();
        client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("modern").requestTimeout(Duration.ofSeconds(10)).build().connect();
    }

    @AfterEach
    void stop() {
        client.close();
        upstream.close();
        assertThat(upstream.headerMismatches()).as(upstream.mismatchReasons().toString()).isZero();
    }

    private static ObjectNode task() {
        return Json.object().put("taskId", TASK);
    }

    @Test
    void aBrokenTasksGetIsReissuedOnce() {
        upstream.breakStream("tasks/get", 1);

        JsonNode detailed = client.request("tasks/get", task());

        assertThat(detailed.path("status").asString()).isEqualTo("completed");
        assertThat(detailed.path("taskId").asString()).isEqualTo(TASK);
        assertThat(upstream.executions("tasks/get")).isEqualTo(2);
        assertThat(client.counters().snapshot().reissues()).isEqualTo(1);
    }

    @Test
    void aBrokenTasksCancelIsReissuedOnce() {
        upstream.breakStream("tasks/cancel", 1);

        JsonNode ack = client.request("tasks/cancel", task());

        assertThat(ack.path("resultType").asString()).isEqualTo("complete");
        assertThat(upstream.executions("tasks/cancel")).isEqualTo(2);
    }

    @Test
    void aBrokenTasksUpdateIsNotSentTwiceAndTheCallerGetsTheLoss() {
        upstream.breakStream("tasks/update", 1);
        ObjectNode update = task();
        update.putObject("inputResponses").putObject("confirm").put("action", "accept");

        assertThatThrownBy(() -> client.request("tasks/update", update)).isInstanceOf(StreamLostException.class);

        assertThat(upstream.executions("tasks/update")).isEqualTo(1);
        assertThat(client.counters().snapshot().reissues()).isZero();
    }

    @Test
    void taskRequestsMirrorTheTaskIdIntoMcpName() {
        client.request("tasks/get", task());
        client.request("tasks/cancel", task());

        assertThat(upstream.requests()).filteredOn(r -> r.rpcMethod() != null && r.rpcMethod().startsWith("tasks/"))
                .hasSize(2).extracting(r -> r.header("Mcp-Name")).containsOnly(TASK);
    }
}

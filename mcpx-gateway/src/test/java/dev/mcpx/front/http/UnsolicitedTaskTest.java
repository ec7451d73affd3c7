package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.testkit.modern.RecordedRequest;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * A modern upstream that hands out a task nobody asked for: a legacy host, which cannot know
 * tasks, and a modern host that did not declare the extension get the task's outcome instead of a
 * CreateTaskResult they could not poll; mcpx polls for it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UnsolicitedTaskTest {

    private ModernHttpUpstream upstream;
    private Gateway gateway;
    private HttpFront front;

    @BeforeAll
    void start() throws Exception {
        upstream = ModernHttpUpstream.start().putTaskTool("task_tool");
        gateway = Gateway.start(TestGateways.config(
                TestGateways.withPrefix(UpstreamConfig.of("modern", UpstreamEndpoint.Http.of(upstream.url().toString())), "mh")),
                TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
    }

    @AfterAll
    void stop() throws Exception {
        front.close();
        gateway.close();
        upstream.close();
    }

    @Test
    void aLegacyHostGetsTheOutcomeOfATaskItNeverAskedFor() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();

        JsonNode result = host.call("mh__task_tool", Json.object()).reply().path("result");

        assertThat(result.has("taskId")).as(result.toString()).isFalse();
        assertThat(result.at("/content/0/text").asString()).isEqualTo("task done");
        assertThat(upstream.executions("task_tool")).isPositive();
        List<RecordedRequest> polls = upstream.requests().stream().filter(r -> "tasks/get".equals(r.rpcMethod())).toList();
        assertThat(polls).isNotEmpty().allSatisfy(poll -> {
            JsonNode params = Json.parse(poll.body()).path("params");
            assertThat(params.path("taskId").asString()).startsWith("task-");
            assertThat(params.at("/_meta/io.modelcontextprotocol~1clientCapabilities/extensions")
                    .has("io.modelcontextprotocol/tasks")).isTrue();
        });
        assertThat(upstream.headerMismatches()).as(upstream.mismatchReasons().toString()).isZero();
    }

    @Test
    void aModernHostThatDidNotOptInGetsTheOutcomeToo() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());

        JsonNode result = host.call("mh__task_tool", Json.object()).reply().path("result");

        assertThat(result.has("taskId")).as(result.toString()).isFalse();
        assertThat(result.path("resultType").asString("complete")).isEqualTo("complete");
        assertThat(result.at("/content/0/text").asString()).isEqualTo("task done");
    }
}

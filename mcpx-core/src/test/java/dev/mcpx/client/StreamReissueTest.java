package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Recovery Phase 2 as a caller sees it: a modern response stream that breaks after the tool ran
 * is re-issued once with a new id only when a repeat is harmless, and the upstream's execution
 * count says how often the tool really ran.
 */
class StreamReissueTest {

    private static final String README = "file:///docs/readme.md";

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

    private McpClient connect(Map<String, Reissue> overrides) {
        client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("modern").requestTimeout(Duration.ofSeconds(10)).reissue(overrides).build().connect();
        return client;
    }

    private JsonNode call(String tool) {
        return client.callTool(tool, Json.object().put("text", "hi"), RequestOptions.defaults());
    }

    private static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asString();
    }

    private int distinctIds(String name) {
        return new HashSet<>(upstream.requestIds(name)).size();
    }

    /** Each attempt's stream starts its progress at 1 again; the caller still sees it only increase. */
    @Test
    void progressOnlyIncreasesAcrossAReissue() {
        connect(Map.of());
        upstream.breakStream("read_only_tool", 1);
        List<Double> progress = new java.util.concurrent.CopyOnWriteArrayList<>();

        JsonNode result = client.callTool("read_only_tool", Json.object().put("text", "hi"),
                RequestOptions.defaults().withProgress(params -> progress.add(params.path("progress").asDouble())));

        assertThat(text(result)).isNotEmpty();
        assertThat(upstream.executions("read_only_tool")).as("re-issued once").isEqualTo(2);
        assertThat(progress).as("what the caller heard").containsExactly(1.0);
    }

    @Test
    void connectsInTheModernEra() {
        connect(Map.of());

        assertThat(client.server().era()).isEqualTo(Era.MODERN);
        assertThat(client.server().protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
        assertThat(client.server().name()).isEqualTo("modern-test-upstream");
    }

    @ParameterizedTest
    @ValueSource(strings = {"read_only_tool", "idempotent_tool"})
    void aToolWhoseRepeatIsHarmlessIsReissuedOnceWithANewId(String tool) {
        connect(Map.of());
        upstream.breakStream(tool, 1);

        JsonNode result = call(tool);

        assertThat(text(result)).isEqualTo(tool + " execution 2");
        assertThat(upstream.executions(tool)).isEqualTo(2);
        assertThat(upstream.requestIds(tool)).hasSize(2);
        assertThat(distinctIds(tool)).isEqualTo(2);
        assertThat(client.counters().snapshot().reissues()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"destructive_tool", "plain_tool"})
    void aToolWithoutEvidenceIsNotRunTwiceAndTheCallerGetsTheStreamLoss(String tool) {
        connect(Map.of());
        upstream.breakStream(tool, 1);

        assertThatThrownBy(() -> call(tool)).isInstanceOf(StreamLostException.class);

        assertThat(upstream.executions(tool)).isEqualTo(1);
        assertThat(upstream.requestIds(tool)).hasSize(1);
        assertThat(client.counters().snapshot().reissues()).isZero();
    }

    @Test
    void aResourceReadBrokenOnceSucceeds() {
        connect(Map.of());
        upstream.breakStream(README, 1);

        JsonNode result = client.request("resources/read", Json.object().put("uri", README));

        assertThat(result.path("contents").path(0).path("text").asString()).isEqualTo("# readme\n");
        assertThat(upstream.executions(README)).isEqualTo(2);
        assertThat(distinctIds(README)).isEqualTo(2);
    }

    @Test
    void aResourceReadBrokenTwiceFailsAfterExactlyTwoAttempts() {
        connect(Map.of());
        upstream.breakStream(README, 2);

        assertThatThrownBy(() -> client.request("resources/read", Json.object().put("uri", README)))
                .isInstanceOf(StreamLostException.class);

        assertThat(upstream.requestIds(README)).hasSize(2);
        assertThat(distinctIds(README)).isEqualTo(2);
    }

    @Test
    void theOperatorCanAllowARepeatTheAnnotationsDoNotClaim() {
        connect(Map.of("destructive_tool", Reissue.ALWAYS));
        upstream.breakStream("destructive_tool", 1);

        assertThat(text(call("destructive_tool"))).isEqualTo("destructive_tool execution 2");
        assertThat(upstream.executions("destructive_tool")).isEqualTo(2);
    }

    @Test
    void theOperatorCanForbidARepeatTheAnnotationsWouldAllow() {
        connect(Map.of("read_only_tool", Reissue.NEVER));
        upstream.breakStream("read_only_tool", 1);

        assertThatThrownBy(() -> call("read_only_tool")).isInstanceOf(StreamLostException.class);
        assertThat(upstream.executions("read_only_tool")).isEqualTo(1);
    }

    /**
     * 20 concurrent calls while the next 20 responses break, re-issues included: whichever
     * attempts the breaks hit, no call runs more than twice, every attempt has its own id, and
     * every failure is a stream loss, or a refusal once three calls in a row lost both their
     * attempts (which the breaks hit depends on timing; the condition is the design).
     */
    @Test
    void concurrentBrokenCallsRecoverIndependently() throws Exception {
        connect(Map.of());
        client.listTools();
        upstream.breakStream("read_only_tool", 20);
        List<Future<JsonNode>> calls = new ArrayList<>();
        int lost = 0;
        int refused = 0;

        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 20; i++) {
                calls.add(threads.submit(() -> call("read_only_tool")));
            }
            for (Future<JsonNode> call : calls) {
                try {
                    assertThat(text(call.get(20, TimeUnit.SECONDS))).startsWith("read_only_tool execution ");
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof StreamLostException) {
                        lost++;
                    } else {
                        assertThat(e.getCause()).isInstanceOf(UpstreamUnavailableException.class)
                                .hasMessageContaining("every response stream of the upstream breaks");
                        refused++;
                    }
                }
            }
        }

        long reissues = client.counters().snapshot().reissues();
        int executions = upstream.executions("read_only_tool");
        assertThat(distinctIds("read_only_tool")).isEqualTo(executions);
        assertThat(executions).as("no call ran more than twice").isLessThanOrEqualTo(20 + (int) reissues);
        if (refused == 0) {
            assertThat(reissues + lost).as("every break hit one attempt").isEqualTo(20);
            assertThat(executions).isEqualTo(20 + (int) reissues);
        } else {
            assertThat(lost).as("the condition needs three calls that lost both attempts").isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void aToolBrokenTwiceRunsTwiceAndThenSurfacesTheLoss() {
        connect(Map.of());
        upstream.breakStream("idempotent_tool", 2);

        assertThatThrownBy(() -> call("idempotent_tool")).isInstanceOf(StreamLostException.class);
        assertThat(upstream.executions("idempotent_tool")).isEqualTo(2);
    }
}

package dev.mcpx.router;

import static dev.mcpx.router.BridgeHosts.capabilities;
import static dev.mcpx.router.BridgeHosts.elicitationAnswer;
import static dev.mcpx.router.BridgeHosts.modernCall;
import static dev.mcpx.router.BridgeHosts.retry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.front.http.HttpFront;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.conformance.ConformanceUpstream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A modern host's call to a legacy upstream is woken by the upstream's result and asks, not by
 * a poll: with the cancellation poll set to an hour, every call still answers (a waiter that
 * only looked between polls would keep the host waiting for good: its SSE response has begun, so no HTTP timeout ends it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HeldCallWakeTest {

    private ConformanceUpstream legacy;
    private Gateway gateway;
    private HttpFront front;
    private HttpHost host;

    @BeforeAll
    void start() throws Exception {
        legacy = ConformanceUpstream.start(0, ConformanceUpstream.Eras.LEGACY_ONLY);
        gateway = BridgeHosts.legacyOnly(legacy.url(), TestGateways.settings()
                .withHeldCalls(new HeldCalls.Limits(Duration.ofMinutes(5), 100, Duration.ofHours(1))));
        front = BridgeHosts.front(gateway);
        host = HttpHost.modern(front.mcpUri());
    }

    @AfterAll
    void stop() throws Exception {
        front.close();
        gateway.close();
        legacy.close();
    }

    @Test
    void toolCallsPromptsAndReadsAnswerWithoutWaitingForAPoll() throws Exception {
        for (int id = 1; id <= 3; id++) {
            assertThat(host.send(modernCall(id, "l__test_simple_text", capabilities(), null), "tools/call").text())
                    .isEqualTo("This is a simple text response for testing.");
        }
        ObjectNode prompt = modernCall(4, "l__test_simple_prompt", capabilities(), null).put("method", "prompts/get");
        ((ObjectNode) prompt.get("params")).remove("arguments");
        assertThat(host.send(prompt, "prompts/get").reply().path("result").path("messages").size()).isEqualTo(1);
        ObjectNode read = modernCall(5, "unused", capabilities(), null).put("method", "resources/read");
        ((ObjectNode) read.get("params")).remove("arguments");
        ((ObjectNode) read.get("params")).remove("name");
        ((ObjectNode) read.get("params")).put("uri", "test://static-text");
        assertThat(host.send(read, "resources/read").reply().path("result").path("contents").path(0).path("text")
                .asString()).isNotEmpty();
    }

    @Test
    void anAskAndTheFinalResultAfterTheHostsRetryEachWakeTheWaitingRequest() throws Exception {
        ObjectNode first = modernCall(10, "l__test_elicitation", capabilities("elicitation"), null);
        JsonNode asked = host.send(first, "tools/call").reply().path("result");
        assertThat(asked.path("resultType").asString()).isEqualTo("input_required");
        ObjectNode answers = Json.object();
        answers.set(asked.path("inputRequests").propertyNames().iterator().next(), elicitationAnswer("username", "awake"));
        assertThat(host.send(retry(first, 11, answers, asked.get("requestState")), "tools/call").text()).contains("awake");
        assertThat(gateway.hostRequests().heldCallCount()).isZero();
    }
}

package dev.mcpx.router;

import static dev.mcpx.router.BridgeHosts.capabilities;
import static dev.mcpx.router.BridgeHosts.modernCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.front.http.HttpFront;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A legacy upstream that asks for roots while a modern host's call is held, from a host that
 * declared none: servers ask for roots unprompted (the everything server does so 350 ms after
 * initialize), so the ask is refused as a host without roots would refuse it and the call ends
 * as the upstream decides. Before, the host's call failed with -32021 (an echo call through
 * `mcpx serve --stdio` in a CI run).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HeldCallRootsTest {

    private LegacyHttpUpstream legacy;
    private Gateway gateway;
    private HttpFront front;
    private HttpHost host;

    @BeforeAll
    void start() throws Exception {
        legacy = LegacyHttpUpstream.started();
        gateway = BridgeHosts.legacyOnly(legacy.url(), TestGateways.settings());
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
    void aRootsAskDuringTheCallOfAHostWithoutRootsIsRefusedUpstreamAndTheCallCompletes() throws Exception {
        ObjectNode call = modernCall(1, "l__ask", capabilities("elicitation"), null);
        ((ObjectNode) call.path("params").path("arguments")).put("kind", "roots");

        HttpHost.Exchange answered = host.send(call, "tools/call");

        JsonNode reply = answered.reply();
        assertThat(reply.has("error")).as(reply.toString()).isFalse();
        assertThat(reply.path("result").path("resultType").asString()).as(reply.toString()).isEqualTo("complete");
        assertThat(answered.text()).as("the upstream heard a host without roots").contains("-32601");
        assertThat(legacy.executions("ask")).isEqualTo(1);
    }
}

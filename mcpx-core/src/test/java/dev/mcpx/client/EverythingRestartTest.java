package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.EverythingHttpServer;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Recovery Phase 1 against the real reference server over Streamable HTTP, its era detected:
 * its process is killed and a new one started on the same port; the same client heals without
 * a restart.
 */
class EverythingRestartTest {

    private EverythingHttpServer server;
    private McpClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void callsThroughTheSameClientSucceedAfterTheServerProcessIsReplaced() {
        server = EverythingHttpServer.start(NodeTools.require());
        UpstreamEndpoint.Http endpoint = new UpstreamEndpoint.Http(server.url(), Map.of(), UpstreamEndpoint.HttpKind.AUTO);
        client = McpClient.builder(endpoint).name("everything").requestTimeout(Duration.ofSeconds(20)).build().connect();
        assertThat(client.server().era()).isEqualTo(Era.LEGACY);
        assertThat(echo("before")).contains("Echo: before");

        server.restart();

        assertThat(echo("after")).as(server::log).contains("Echo: after");
        assertThat(echo("again")).contains("Echo: again");
        assertThat(client.counters().snapshot().reinitializations()).isEqualTo(1);
        assertThat(client.counters().snapshot().errors()).isZero();
    }

    private String echo(String message) {
        JsonNode result = client.callTool("echo", Json.object().put("message", message), RequestOptions.defaults());
        return result.path("content").path(0).path("text").asString();
    }
}

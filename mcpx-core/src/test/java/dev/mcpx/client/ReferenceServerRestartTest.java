package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.testkit.EverythingHttpServer;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The official reference server ({@code server-everything streamableHttp}) killed and started
 * again on the same port: the same client carries on (it answers the stale session with
 * {@code 400 Bad Request: No valid session ID provided}).
 */
class ReferenceServerRestartTest {

    private EverythingHttpServer server;
    private McpClient client;

    @AfterEach
    void stopAll() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void callsThroughTheSameClientSucceedAfterTheServerIsKilledAndStartedAgain() {
        server = EverythingHttpServer.start(NodeTools.require());
        client = McpClient.builder(new UpstreamEndpoint.Http(server.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("everything").protocolVersion(ProtocolVersion.V2025_11_25)
                .requestTimeout(Duration.ofSeconds(20)).build().connect();
        assertThat(echo("before")).isEqualTo("Echo: before");

        server.restart();

        assertThat(echo("after")).as(server::log).isEqualTo("Echo: after");
        assertThat(echo("and later")).isEqualTo("Echo: and later");
        assertThat(client.counters().snapshot().reinitializations()).isEqualTo(1);
    }

    private String echo(String message) {
        JsonNode result = client.callTool("echo", Json.object().put("message", message), RequestOptions.defaults());
        return result.path("content").path(0).path("text").asString();
    }
}

package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.testkit.legacy.LegacySseUpstream;
import dev.mcpx.transport.TransportKind;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client on the deprecated HTTP+SSE transport, chosen by config or by the spec's fallback. */
class HttpSseClientTest {

    private final LegacySseUpstream upstream = LegacySseUpstream.started();
    private McpClient client;

    @AfterEach
    void stopAll() {
        if (client != null) {
            client.close();
        }
        upstream.close();
    }

    @Test
    void anSseUpstreamFromConfigSpeaks20241105() {
        client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.SSE))
                .requestTimeout(Duration.ofSeconds(10)).build().connect();

        assertThat(client.server().protocolVersion()).isEqualTo(ProtocolVersion.V2024_11_05);
        assertThat(client.transportKind()).isEqualTo(TransportKind.HTTP_SSE);
        assertThat(client.callTool("add", Json.object().put("a", 2).put("b", 3), RequestOptions.defaults())
                .path("content").path(0).path("text").asString()).isEqualTo("5");
    }

    @Test
    void aStreamableHttpRefusalWithoutAnMcpErrorFallsBackToHttpSse() {
        client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.AUTO))
                .protocolVersion(ProtocolVersion.V2025_11_25).requestTimeout(Duration.ofSeconds(10)).build().connect();

        assertThat(client.transportKind()).isEqualTo(TransportKind.HTTP_SSE);
        assertThat(client.listTools()).isNotEmpty();
    }
}

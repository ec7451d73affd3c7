package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The legacy handshake as the upstream sees it, on the first connect and after a re-initialize. */
class LegacyHandshakeTest {

    @Test
    void initializedFollowsEveryInitializeResultBeforeAnyOtherRequest() {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started();
             McpClient client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(),
                             UpstreamEndpoint.HttpKind.STREAMABLE))
                     .protocolVersion(ProtocolVersion.V2025_11_25).requestTimeout(Duration.ofSeconds(10))
                     .build().connect()) {
            client.listTools();
            upstream.forgetSessions();
            client.callTool("echo", Json.object().put("text", "again"), RequestOptions.defaults());

            List<String> posts = upstream.requests().stream().filter(r -> r.httpMethod().equals("POST"))
                    .map(RecordedRequest::rpcMethod).toList();
            assertThat(posts).containsSubsequence("initialize", "notifications/initialized", "tools/list",
                    "tools/call", "initialize", "notifications/initialized", "tools/call");
            for (int i = 0; i < posts.size(); i++) {
                if (posts.get(i).equals("initialize")) {
                    assertThat(posts.get(i + 1)).as("what follows initialize #" + i).isEqualTo("notifications/initialized");
                }
            }
        }
    }
}

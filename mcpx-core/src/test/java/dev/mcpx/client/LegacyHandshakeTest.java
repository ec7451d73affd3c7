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

    /**
     * A listen GET that a server sees during a call's SSE stream looks like that stream's resume
     * (the conformance suite's sse-retry server answers it with the call's result): connect and
     * every re-initialize return only once the server has answered the GET, however slowly.
     */
    @Test
    void theListenStreamIsAnsweredBeforeConnectOrAReinitializeReturns() {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started().listenAnswerDelay(Duration.ofMillis(500));
             McpClient client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(),
                             UpstreamEndpoint.HttpKind.STREAMABLE))
                     .protocolVersion(ProtocolVersion.V2025_11_25).requestTimeout(Duration.ofSeconds(10))
                     .build().connect()) {
            assertThat(upstream.openListenStreams()).as("listen streams answered when connect returned").isEqualTo(1);

            upstream.forgetSessions();
            client.callTool("echo", Json.object().put("text", "again"), RequestOptions.defaults());

            List<String> sequence = upstream.requests().stream()
                    .map(r -> r.httpMethod().equals("POST") ? r.rpcMethod() : r.httpMethod()).toList();
            assertThat(sequence).containsSubsequence("initialize", "notifications/initialized", "GET",
                    "tools/call", "initialize", "notifications/initialized", "GET", "tools/call");
            int reinitialized = sequence.lastIndexOf("initialize");
            assertThat(sequence.subList(reinitialized, sequence.size()))
                    .as("after the re-initialize, the retried call follows the new listen GET")
                    .containsSubsequence("notifications/initialized", "GET", "tools/call");
        }
    }
}

package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestTimeoutException;
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

    /** Waiting for the listen GET spends the deadline of the call that re-initializes, no more. */
    @Test
    void aStalledListenGetCostsAReinitializingCallAtMostItsTimeout() {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started();
             McpClient client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(),
                             UpstreamEndpoint.HttpKind.STREAMABLE))
                     .protocolVersion(ProtocolVersion.V2025_11_25).requestTimeout(Duration.ofSeconds(2))
                     .build().connect()) {
            upstream.listenAnswerDelay(Duration.ofSeconds(60));
            upstream.forgetSessions();

            long start = System.nanoTime();
            try {
                client.callTool("echo", Json.object().put("text", "late"), RequestOptions.defaults());
            } catch (RequestTimeoutException e) {
                // the GET took the call's time: a timeout, in time, is the answer
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).as("the call's 2 s, not the 10 s connect timeout").isLessThan(Duration.ofSeconds(6));
            assertThat(upstream.initializeCount()).isEqualTo(2);
        }
    }
}

package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream.ResponseMode;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/** Timeouts on a legacy HTTP upstream, however it answers (one JSON body only when the tool is done, or SSE). */
class LegacyTimeoutTest {

    private static McpClient.Builder client(LegacyHttpUpstream upstream) {
        return McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .protocolVersion(ProtocolVersion.V2025_11_25).requestTimeout(Duration.ofSeconds(10));
    }

    private static List<JsonNode> cancellations(LegacyHttpUpstream upstream) {
        return upstream.requests().stream().filter(r -> "notifications/cancelled".equals(r.rpcMethod()))
                .map(r -> Json.parse(r.body())).toList();
    }

    @ParameterizedTest
    @EnumSource(ResponseMode.class)
    void aSlowCallTimesOutOnTimeAndTheServerIsToldToCancelThatRequest(ResponseMode mode) {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started().responseMode(mode);
             McpClient client = client(upstream).build().connect()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.callTool("slow", Json.object().put("ms", 3000),
                    RequestOptions.defaults().withTimeout(Duration.ofMillis(300))))
                    .isInstanceOf(RequestTimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2000));

            String slowCallId = upstream.requests().stream().filter(r -> "tools/call".equals(r.rpcMethod()))
                    .map(RecordedRequest::rpcId).findFirst().orElseThrow();
            await().atMost(Duration.ofSeconds(5)).until(() -> !cancellations(upstream).isEmpty());
            assertThat(cancellations(upstream)).singleElement()
                    .satisfies(c -> assertThat(c.path("params").path("requestId").toString()).isEqualTo(slowCallId));
        }
    }

    @Test
    void anInitializeThatTimesOutIsNeverCancelled() throws InterruptedException {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started()) {
            upstream.initializeDelay(Duration.ofMillis(4000));
            assertThatThrownBy(() -> client(upstream).requestTimeout(Duration.ofMillis(1500)).build().connect())
                    .isInstanceOf(RequestTimeoutException.class);
            Thread.sleep(3000);
            assertThat(upstream.requestIdsSeen("initialize")).hasSize(1);
            assertThat(cancellations(upstream)).isEmpty();
        }
    }
}

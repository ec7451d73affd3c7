package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.ToolDescriptor;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.testkit.modern.RecordedRequest;
import dev.mcpx.transport.TransportKind;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** One URL, no hint of the era: the client tries modern first and falls back only on a legacy answer. */
class EraDetectionTest {

    private static McpClient connect(URI url) {
        return McpClient.builder(UpstreamEndpoint.Http.of(url.toString())).name("detect")
                .requestTimeout(Duration.ofSeconds(10)).build().connect();
    }

    @Test
    void aModernUpstreamIsSpokenToStatelessly() {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start(); McpClient client = connect(upstream.url())) {
            client.callTool("read_only_tool", Json.object(), RequestOptions.defaults());

            assertThat(client.server().era()).isEqualTo(Era.MODERN);
            assertThat(client.server().protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
            assertThat(client.transportKind()).isEqualTo(TransportKind.STREAMABLE_HTTP);
            assertThat(upstream.requests()).extracting(RecordedRequest::rpcMethod).doesNotContain("initialize");
            assertThat(upstream.violations()).isEmpty();
            assertThat(upstream.headerMismatches()).isZero();
        }
    }

    @Test
    void aLegacyUpstreamIsInitializedAfterTheModernProbe() {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started(); McpClient client = connect(upstream.url())) {
            assertThat(client.server().era()).isEqualTo(Era.LEGACY);
            assertThat(client.server().protocolVersion()).isEqualTo(ProtocolVersion.V2025_11_25);
            assertThat(client.listTools()).extracting(ToolDescriptor::name).isNotEmpty();
            assertThat(upstream.initializeCount()).isEqualTo(1);
        }
    }
}

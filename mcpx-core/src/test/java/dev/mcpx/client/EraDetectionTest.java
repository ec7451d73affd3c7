package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.TransportKind;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** HTTP era detection: a modern request first; anything but a recognised modern answer means legacy. */
class EraDetectionTest {

    private static McpClient connect(URI url) {
        return McpClient.builder(new UpstreamEndpoint.Http(url, Map.of(), UpstreamEndpoint.HttpKind.AUTO))
                .name("detect").build().connect();
    }

    @Test
    void aModernServerIsSpokenToStatelessly() {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start(); McpClient client = connect(upstream.url())) {
            assertThat(client.server().era()).isEqualTo(Era.MODERN);
            assertThat(client.server().protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
            assertThat(client.transportKind()).isEqualTo(TransportKind.STREAMABLE_HTTP);
            assertThat(client.listTools()).isNotEmpty();
            assertThat(upstream.calls("initialize")).isZero();
            assertThat(upstream.headerMismatches()).isZero();
            assertThat(upstream.violations()).as("no GET, DELETE, session or resume headers").isEmpty();
        }
    }

    @Test
    void aModernServerSlowerThanTheStdioProbeTimeoutIsStillModernOverHttp() {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start()
                .delay("server/discover", java.time.Duration.ofMillis(1500));
             McpClient client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.AUTO))
                     .name("slow").probeTimeout(java.time.Duration.ofMillis(200)).build().connect()) {
            assertThat(client.server().era()).isEqualTo(Era.MODERN);
            assertThat(upstream.calls("initialize")).isZero();
        }
    }

    @Test
    void aLegacyServerIsInitializedAfterTheModernProbeIsRefused() {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started(); McpClient client = connect(upstream.url())) {
            assertThat(client.server().era()).isEqualTo(Era.LEGACY);
            assertThat(client.server().protocolVersion()).isEqualTo(ProtocolVersion.V2025_11_25);
            assertThat(client.isOpen()).isTrue();
            assertThat(client.listTools()).isNotEmpty();
            assertThat(upstream.initializeCount()).isEqualTo(1);
        }
    }
}

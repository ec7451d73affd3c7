package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Legacy-era messages travel as UTF-8 both ways, on legacy HTTP and on stdio. */
class Utf8RoundTripTest {

    private static final String TEXT = "héllo ✓ 日本 🙂";

    private static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asString();
    }

    @Test
    void overLegacyHttpTheServerDecodesStrictUtf8AndTheAnswerComesBackIntact() {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started();
             McpClient client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(),
                             UpstreamEndpoint.HttpKind.STREAMABLE))
                     .protocolVersion(ProtocolVersion.V2025_11_25).requestTimeout(Duration.ofSeconds(10))
                     .build().connect()) {
            assertThat(text(client.callTool("echo", Json.object().put("text", TEXT), RequestOptions.defaults())))
                    .isEqualTo(TEXT);
            RecordedRequest call = upstream.requests().stream().filter(r -> "tools/call".equals(r.rpcMethod()))
                    .findFirst().orElseThrow();
            assertThat(call.body()).contains(TEXT);
        }
    }

    @Test
    void overStdioTheChildReadsUtf8AndTheAnswerComesBackIntact() {
        List<String> command = StdioFakeServer.command("--era", "legacy");
        UpstreamEndpoint.Stdio endpoint = new UpstreamEndpoint.Stdio(command.getFirst(),
                command.subList(1, command.size()), Map.of(), null, false);
        try (McpClient client = McpClient.builder(endpoint).protocolVersion(ProtocolVersion.V2025_11_25)
                .requestTimeout(Duration.ofSeconds(10)).build().connect()) {
            assertThat(text(client.callTool("echo", Json.object().put("text", TEXT), RequestOptions.defaults())))
                    .isEqualTo("Echo: " + TEXT);
        }
    }
}

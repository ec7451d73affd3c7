package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.testkit.modern.RecordedRequest;
import dev.mcpx.transport.UpstreamEndpoint;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A name from a body (a tool name an upstream listed, or a host asked for) travels in the
 * {@code Mcp-Name} header: CR and LF in it must never become a header break upstream.
 */
class HeaderInjectionTest {

    private static final String EVIL = "evil\r\nX-Injected: yes\r\n\r\nGET /admin HTTP/1.1";

    @Test
    void aToolNameWithCrLfIsSentEncodedAndInjectsNothing() {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start()
                .putEchoTool(Json.write(Json.object().put("name", EVIL).put("description", "crlf")
                        .set("inputSchema", Json.object().put("type", "object"))));
             McpClient client = McpClient.builder(UpstreamEndpoint.Http.of(upstream.url().toString())).name("crlf").build()) {
            client.connect();
            JsonNode result = client.callTool(EVIL, Json.object(), RequestOptions.defaults());
            assertThat(result.path("structuredContent").path("tool").asString()).isEqualTo(EVIL);
            RecordedRequest sent = upstream.requests().stream().filter(r -> EVIL.equals(r.name())).findFirst().orElseThrow();
            assertThat(sent.headers()).doesNotContainKey("x-injected");
            assertThat(sent.headers().get("mcp-name")).singleElement().asString().startsWith("=?base64?");
            sent.headers().values().forEach(values -> values.forEach(value -> assertThat(value).doesNotContain("\r", "\n")));
        }
    }
}

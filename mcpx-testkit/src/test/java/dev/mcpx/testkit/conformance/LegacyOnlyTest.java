package dev.mcpx.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fixture as a server from before 2026-07-28: modern requests are told to initialize first. */
class LegacyOnlyTest {

    @Test
    void discoverIsRefusedAndInitializeStillOpensASession() throws Exception {
        try (ConformanceUpstream upstream = ConformanceUpstream.start(0, ConformanceUpstream.Eras.LEGACY_ONLY)) {
            McpHttp http = new McpHttp(upstream.url());

            HttpResponse<String> discover = http.post("""
                    {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{
                      "io.modelcontextprotocol/protocolVersion":"2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities":{}}}}""",
                    Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "server/discover"));
            assertThat(discover.statusCode()).isEqualTo(400);
            assertThat(McpHttp.JSON.readTree(discover.body()).at("/error/code").asInt()).isEqualTo(-32600);

            HttpResponse<String> initialize = http.post("""
                    {"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25",
                      "capabilities":{},"clientInfo":{"name":"test","version":"1"}}}""", Map.of());
            assertThat(initialize.statusCode()).isEqualTo(200);
            assertThat(initialize.headers().firstValue("Mcp-Session-Id")).isPresent();
        }
    }
}

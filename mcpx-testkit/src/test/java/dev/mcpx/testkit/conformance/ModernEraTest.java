package dev.mcpx.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The 2026-07-28 side of the fixture server, over real HTTP. */
class ModernEraTest {

    private static final String META = """
            "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                     "io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}""";

    private static ConformanceUpstream upstream;
    private static McpHttp http;

    @BeforeAll
    static void start() {
        upstream = ConformanceUpstream.start();
        http = new McpHttp(upstream.url());
    }

    @AfterAll
    static void stop() {
        upstream.close();
    }

    @Test
    void listResultsCarryResultTypeAndCachingHints() throws Exception {
        JsonNode result = ok(post("tools/list", null, "{" + META + "}")).get("result");

        assertThat(result.get("resultType").asString()).isEqualTo("complete");
        assertThat(result.get("ttlMs").asInt()).isGreaterThanOrEqualTo(0);
        assertThat(result.get("cacheScope").asString()).isIn("public", "private");
        assertThat(result.at("/tools/0/name").asString()).isEqualTo("test_simple_text");
    }

    @Test
    void headersMustMatchTheBody() throws Exception {
        HttpResponse<String> wrongMethod = http.post(body("tools/list", "{" + META + "}"),
                Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "prompts/list"));
        assertThat(wrongMethod.statusCode()).isEqualTo(400);
        assertThat(McpHttp.JSON.readTree(wrongMethod.body()).at("/error/code").asInt()).isEqualTo(-32020);

        HttpResponse<String> wrongName = post("tools/call", "wrong_tool",
                "{\"name\":\"test_simple_text\",\"arguments\":{}," + META + "}");
        assertThat(wrongName.statusCode()).isEqualTo(400);
        assertThat(McpHttp.JSON.readTree(wrongName.body()).at("/error/code").asInt()).isEqualTo(-32020);
    }

    @Test
    void unsupportedVersionListsTheSupportedOnes() throws Exception {
        HttpResponse<String> response = http.post(body("server/discover", """
                {"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01",
                          "io.modelcontextprotocol/clientCapabilities":{}}}"""),
                Map.of("MCP-Protocol-Version", "2099-01-01", "Mcp-Method", "server/discover"));

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = McpHttp.JSON.readTree(response.body()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32022);
        assertThat(error.at("/data/supported/0").asString()).isEqualTo("2026-07-28");
        assertThat(error.at("/data/requested").asString()).isEqualTo("2099-01-01");
    }

    @Test
    void requestStateRoundTripsAndTamperingIsRejected() throws Exception {
        String tool = "test_input_required_result_request_state";
        JsonNode first = ok(post("tools/call", tool, "{\"name\":\"" + tool + "\",\"arguments\":{}," + META + "}"))
                .get("result");
        assertThat(first.get("resultType").asString()).isEqualTo("input_required");
        assertThat(first.at("/inputRequests/confirm/method").asString()).isEqualTo("elicitation/create");
        String state = first.get("requestState").asString();

        String retry = "{\"name\":\"" + tool + "\",\"arguments\":{},"
                + "\"inputResponses\":{\"confirm\":{\"action\":\"accept\",\"content\":{\"ok\":true}}},"
                + "\"requestState\":\"%s\"," + META + "}";
        JsonNode done = ok(post("tools/call", tool, retry.formatted(state))).get("result");
        assertThat(done.at("/content/0/text").asString()).contains("state-ok");

        HttpResponse<String> tampered = post("tools/call", tool, retry.formatted(state + "-TAMPERED"));
        assertThat(McpHttp.JSON.readTree(tampered.body()).at("/error/code").asInt()).isEqualTo(-32602);
    }

    @Test
    void listenStreamIsAcknowledgedThenCarriesRequestedChanges() throws Exception {
        HttpResponse<Stream<String>> listen = http.postStreaming(
                body("subscriptions/listen", "{\"notifications\":{\"toolsListChanged\":true}," + META + "}"),
                Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "subscriptions/listen"));
        Iterator<String> lines = listen.body().iterator();
        JsonNode ack = McpHttp.nextData(lines);
        assertThat(ack.get("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(ack.at("/params/notifications/toolsListChanged").asBoolean()).isTrue();

        ok(post("tools/call", "test_trigger_tool_change",
                "{\"name\":\"test_trigger_tool_change\",\"arguments\":{}," + META + "}"));

        JsonNode changed = McpHttp.nextData(lines);
        assertThat(changed.get("method").asString()).isEqualTo("notifications/tools/list_changed");
        assertThat(changed.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asInt()).isEqualTo(1);
        listen.body().close();
    }

    private static HttpResponse<String> post(String method, String name, String params) throws Exception {
        Map<String, String> headers = name == null
                ? Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method)
                : Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method, "Mcp-Name", name);
        return http.post(body(method, params), headers);
    }

    private static String body(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private static JsonNode ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return McpHttp.JSON.readTree(response.body());
    }
}

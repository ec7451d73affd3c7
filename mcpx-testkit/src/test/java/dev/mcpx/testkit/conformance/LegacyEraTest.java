package dev.mcpx.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The 2025-11-25 side of the fixture server, over real HTTP. */
class LegacyEraTest {

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
    void initializeMintsASessionAndDeleteEndsIt() throws Exception {
        String session = initialize();

        HttpResponse<String> call = http.post("""
                {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}""",
                sessionHeaders(session));
        assertThat(McpHttp.JSON.readTree(call.body()).at("/result/content/0/text").asString())
                .isEqualTo("This is a simple text response for testing.");

        assertThat(http.delete(session).statusCode()).isEqualTo(200);
        HttpResponse<String> afterDelete = http.post("""
                {"jsonrpc":"2.0","id":3,"method":"tools/list"}""", sessionHeaders(session));
        assertThat(afterDelete.statusCode()).isEqualTo(404);
    }

    @Test
    void progressArrivesOnAnSseStreamBeforeTheResult() throws Exception {
        String session = initialize();

        HttpResponse<Stream<String>> response = http.postStreaming("""
                {"jsonrpc":"2.0","id":7,"method":"tools/call",
                 "params":{"name":"test_tool_with_progress","arguments":{},"_meta":{"progressToken":"p1"}}}""",
                sessionHeaders(session));

        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/event-stream");
        Iterator<String> lines = response.body().iterator();
        List<Integer> progress = List.of(
                McpHttp.nextData(lines).at("/params/progress").asInt(),
                McpHttp.nextData(lines).at("/params/progress").asInt(),
                McpHttp.nextData(lines).at("/params/progress").asInt());
        assertThat(progress).containsExactly(0, 50, 100);
        assertThat(McpHttp.nextData(lines).at("/result/content/0/text").asString()).isEqualTo("p1");
        response.body().close();
    }

    @Test
    void samplingIsAServerToClientRequestAnsweredByPost() throws Exception {
        String session = initialize();

        HttpResponse<Stream<String>> response = http.postStreaming("""
                {"jsonrpc":"2.0","id":8,"method":"tools/call",
                 "params":{"name":"test_sampling","arguments":{"prompt":"Capital of France?"}}}""",
                sessionHeaders(session));
        Iterator<String> lines = response.body().iterator();
        JsonNode request = McpHttp.nextData(lines);
        assertThat(request.get("method").asString()).isEqualTo("sampling/createMessage");
        assertThat(request.at("/params/messages/0/content/text").asString()).isEqualTo("Capital of France?");

        HttpResponse<String> answer = http.post("""
                {"jsonrpc":"2.0","id":"%s","result":{"role":"assistant","content":{"type":"text","text":"Paris"},
                 "model":"test-model","stopReason":"endTurn"}}""".formatted(request.get("id").asString()),
                sessionHeaders(session));
        assertThat(answer.statusCode()).isEqualTo(202);
        assertThat(McpHttp.nextData(lines).at("/result/content/0/text").asString()).isEqualTo("LLM response: Paris");
        response.body().close();
    }

    @Test
    void aStreamClosedMidCallResumesWithLastEventId() throws Exception {
        String session = initialize();

        HttpResponse<Stream<String>> post = http.postStreaming("""
                {"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"test_reconnection","arguments":{}}}""",
                sessionHeaders(session));
        List<String> primed = post.body().toList();
        assertThat(primed).contains("retry: 500", "data: ");
        String lastEventId = primed.stream().filter(line -> line.startsWith("id: ")).reduce((a, b) -> b)
                .orElseThrow().substring(4);

        HttpResponse<Stream<String>> resumed = http.getStreaming(Map.of(
                "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25", "Last-Event-ID", lastEventId));
        JsonNode result = McpHttp.nextData(resumed.body().iterator());
        assertThat(result.get("id").asInt()).isEqualTo(9);
        assertThat(result.at("/result/content/0/text").asString()).startsWith("Reconnection test completed");
        resumed.body().close();
    }

    @Test
    void foreignOriginIsForbidden() throws Exception {
        HttpResponse<String> response = http.post("""
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
                 "capabilities":{},"clientInfo":{"name":"t","version":"1"}}}""",
                Map.of("Origin", "http://evil.example.com"));
        assertThat(response.statusCode()).isEqualTo(403);
    }

    private static String initialize() throws Exception {
        HttpResponse<String> response = http.post("""
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
                 "capabilities":{"sampling":{},"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}""",
                Map.of());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(McpHttp.JSON.readTree(response.body()).at("/result/protocolVersion").asString())
                .isEqualTo("2025-11-25");
        return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private static Map<String, String> sessionHeaders(String session) {
        return Map.of("Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25");
    }
}

package dev.mcpx.testkit.modern;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The fake's own checks, driven by raw HTTP: "zero header mismatches" only means something if the
 * fake rejects every mismatch a client could make.
 */
class ModernHttpUpstreamTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String META = "\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\","
            + " \"io.modelcontextprotocol/clientCapabilities\": {}}";

    private final ModernHttpUpstream upstream = ModernHttpUpstream.start();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterEach
    void stop() {
        upstream.close();
        http.close();
    }

    private HttpResponse<String> post(Map<String, String> headers, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(upstream.url())
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int errorCode(HttpResponse<String> response) {
        JsonNode body = JSON.readTree(response.body());
        return body.path("error").path("code").asInt();
    }

    private static String call(String tool, String arguments) {
        return "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"" + tool
                + "\", \"arguments\": " + arguments + ", " + META + "}}";
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "DELETE"})
    void getAndDeleteAreNotAllowed(String method) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(upstream.url())
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(upstream.violations()).singleElement().asString().contains(method);
    }

    @Test
    void aRequestWithoutModernMetaIsInvalidParams() throws Exception {
        HttpResponse<String> response = post(Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list"),
                "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo(-32602);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no version header|plain_tool|{}|Mcp-Method=tools/call;Mcp-Name=plain_tool",
            "version header differs|plain_tool|{}|MCP-Protocol-Version=2025-11-25;Mcp-Method=tools/call;Mcp-Name=plain_tool",
            "method header differs|plain_tool|{}|MCP-Protocol-Version=2026-07-28;Mcp-Method=tools/list;Mcp-Name=plain_tool",
            "no name header|plain_tool|{}|MCP-Protocol-Version=2026-07-28;Mcp-Method=tools/call",
            "name header differs|plain_tool|{}|MCP-Protocol-Version=2026-07-28;Mcp-Method=tools/call;Mcp-Name=read_only_tool",
            "bad base64 name|plain_tool|{}|MCP-Protocol-Version=2026-07-28;Mcp-Method=tools/call;Mcp-Name==?base64?@@@?=",
            "param header missing|header_tool|{\"region\": \"eu\"}|MCP-Protocol-Version=2026-07-28;Mcp-Method=tools/call;Mcp-Name=header_tool",
            "param header differs|header_tool|{\"region\": \"eu\"}|MCP-Protocol-Version=2026-07-28;Mcp-Method=tools/call;Mcp-Name=header_tool;Mcp-Param-Region=us",
            "param header for absent value|header_tool|{}|MCP-Protocol-Version=2026-07-28;Mcp-Method=tools/call;Mcp-Name=header_tool;Mcp-Param-Region=us",
            "unknown param header|header_tool|{}|MCP-Protocol-Version=2026-07-28;Mcp-Method=tools/call;Mcp-Name=header_tool;Mcp-Param-Other=x"
    })
    void everyHeaderMismatchIsRejectedAndCounted(String name, String tool, String arguments, String headers) throws Exception {
        Map<String, String> headerMap = new LinkedHashMap<>();
        for (String pair : headers.split(";")) {
            int eq = pair.indexOf('=');
            headerMap.put(pair.substring(0, eq), pair.substring(eq + 1));
        }

        HttpResponse<String> response = post(headerMap, call(tool, arguments));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo(-32020);
        assertThat(upstream.headerMismatches()).isEqualTo(1);
        assertThat(upstream.executions(tool)).isZero();
    }

    @Test
    void matchingHeadersIncludingEncodedOnesAreAccepted() throws Exception {
        HttpResponse<String> response = post(Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
                        "Mcp-Name", "header_tool", "Mcp-Param-Region", "=?base64?WsO8cmljaA==?=", "Mcp-Param-Count", "42.0"),
                call("header_tool", "{\"region\": \"Zürich\", \"count\": 42}"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(upstream.headerMismatches()).isZero();
        assertThat(upstream.executions("header_tool")).isEqualTo(1);
    }

    @Test
    void anUnsupportedVersionListsTheSupportedOnes() throws Exception {
        upstream.supportedVersions("2099-01-01");

        HttpResponse<String> response = post(Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
                "Mcp-Name", "plain_tool"), call("plain_tool", "{}"));

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = JSON.readTree(response.body()).path("error");
        assertThat(error.path("code").asInt()).isEqualTo(-32022);
        assertThat(error.path("data").path("supported").get(0).asString()).isEqualTo("2099-01-01");
        assertThat(error.path("data").path("requested").asString()).isEqualTo("2026-07-28");
    }
}

package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.ToolDescriptor;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.testkit.modern.RecordedRequest;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The client against a modern (2026-07-28) Streamable HTTP upstream: headers, MRTR, versions, caching. */
class ModernHttpClientTest {

    private ModernHttpUpstream upstream;
    private McpClient client;
    private int expectedMismatches;

    @BeforeEach
    void start() {
        upstream = ModernHttpUpstream.start();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        upstream.close();
        assertThat(upstream.headerMismatches()).as(upstream.mismatchReasons().toString()).isEqualTo(expectedMismatches);
        assertThat(upstream.violations()).isEmpty();
    }

    private McpClient.Builder builder() {
        return McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("modern").requestTimeout(Duration.ofSeconds(10));
    }

    private McpClient connect() {
        client = builder().build().connect();
        return client;
    }

    private static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asString();
    }

    private static ObjectNode json(String singleQuoted) {
        return (ObjectNode) Json.parse(singleQuoted.replace('\'', '"'));
    }

    private List<RecordedRequest> callsOf(String tool) {
        return upstream.requests().stream().filter(r -> tool.equals(r.name())).toList();
    }

    @Test
    void annotatedParametersTravelAsHeadersTheUpstreamAccepts() {
        connect();

        JsonNode result = client.callTool("header_tool", json("""
                {'region': 'Zürich\\n', 'count': 9007199254740991, 'verbose': false,
                 'target': {'zone': '=?base64?not really?='}, 'query': 'SELECT 1'}"""), RequestOptions.defaults());

        assertThat(result.path("structuredContent").path("arguments").path("region").asString()).isEqualTo("Zürich\n");
        RecordedRequest sent = callsOf("header_tool").getFirst();
        assertThat(sent.header("Mcp-Param-Region")).startsWith("=?base64?");
        assertThat(sent.header("Mcp-Param-Count")).isEqualTo("9007199254740991");
        assertThat(sent.header("Mcp-Param-Verbose")).isEqualTo("false");
        assertThat(sent.header("Mcp-Param-Zone")).startsWith("=?base64?").isNotEqualTo("=?base64?not really?=");
    }

    @Test
    void anIntegerOutsideTheSafeRangeIsRefusedBeforeTheCallLeaves() {
        connect();
        client.listTools();

        assertThatThrownBy(() -> client.callTool("header_tool", json("{'count': 9007199254740993}"), RequestOptions.defaults()))
                .isInstanceOfSatisfying(McpErrorException.class, e -> {
                    assertThat(e.code()).isEqualTo(-32602);
                    assertThat(e.getMessage()).contains("Count");
                });
        assertThat(callsOf("header_tool")).isEmpty();
    }

    @Test
    void absentAndNullParametersSendNoHeader() {
        connect();

        client.callTool("header_tool", json("{'region': null, 'query': 'q'}"), RequestOptions.defaults());

        assertThat(callsOf("header_tool").getFirst().headers().keySet()).noneMatch(h -> h.startsWith("mcp-param-"));
    }

    @Test
    void aToolWithInvalidHeaderAnnotationsIsLeftOut() {
        connect();

        assertThat(client.listTools()).extracting(ToolDescriptor::name)
                .contains("read_only_tool", "header_tool", "mrtr_tool")
                .doesNotContain("invalid_header_tool");
    }

    @Test
    void aHeaderMismatchRefreshesTheToolsAndRetriesOnce() {
        connect();
        client.listTools();
        upstream.putEchoTool("""
                {"name": "header_tool", "inputSchema": {"type": "object", "properties": {
                  "region": {"type": "string", "x-mcp-header": "Area"}}}}""");
        expectedMismatches = 1;

        JsonNode result = client.callTool("header_tool", json("{'region': 'eu'}"), RequestOptions.defaults());

        assertThat(text(result)).isEqualTo("header_tool execution 1");
        assertThat(upstream.executions("header_tool")).isEqualTo(1);
        assertThat(upstream.calls("tools/list")).isEqualTo(2);
        assertThat(callsOf("header_tool").getLast().header("Mcp-Param-Area")).isEqualTo("eu");
    }

    @Test
    void inputRequiredIsAnsweredThroughTheHandlerAndTheStateEchoedByteForByte() {
        List<String> asked = new CopyOnWriteArrayList<>();
        client = builder()
                .capabilities(json("{'elicitation': {}}"))
                .serverRequests((method, params) -> {
                    asked.add(method + ": " + params.path("message").asString());
                    return json("{'action': 'accept', 'content': {'name': 'octocat'}}");
                })
                .build().connect();

        JsonNode result = client.callTool("mrtr_tool", Json.object(), RequestOptions.defaults());

        assertThat(text(result)).isEqualTo("hello octocat");
        assertThat(asked).containsExactly("elicitation/create: Please provide your GitHub username");
        List<RecordedRequest> rounds = callsOf("mrtr_tool");
        assertThat(rounds).hasSize(2);
        assertThat(new HashSet<>(upstream.requestIds("mrtr_tool"))).hasSize(2);
        JsonNode retry = Json.parse(rounds.get(1).body()).path("params");
        assertThat(retry.path("requestState").asString()).isEqualTo("state/1+/= \"ünïcödé\" \\ end");
        assertThat(retry.path("inputResponses").path("github_login").path("content").path("name").asString()).isEqualTo("octocat");
    }

    @Test
    void aMissingClientCapabilityIsTheUpstreamsError() {
        connect();

        assertThatThrownBy(() -> client.callTool("mrtr_tool", Json.object(), RequestOptions.defaults()))
                .isInstanceOfSatisfying(McpErrorException.class, e -> assertThat(e.code()).isEqualTo(-32021));
    }

    @Test
    void aSecondUnsupportedVersionErrorSurfaces() {
        connect();
        upstream.refuseVersion("tools/call", 2);

        assertThatThrownBy(() -> client.callTool("plain_tool", Json.object(), RequestOptions.defaults()))
                .isInstanceOfSatisfying(McpErrorException.class, e -> assertThat(e.code()).isEqualTo(-32022));
        assertThat(callsOf("plain_tool")).hasSize(2);
        assertThat(upstream.executions("plain_tool")).isZero();
    }

    @Test
    void aVersionTheUpstreamStoppedSupportingFailsClearlyWithoutRunningTheTool() {
        connect();
        upstream.supportedVersions("2099-01-01");

        assertThatThrownBy(() -> client.callTool("read_only_tool", Json.object(), RequestOptions.defaults()))
                .isInstanceOfSatisfying(McpErrorException.class, e -> {
                    assertThat(e.code()).isEqualTo(-32022);
                    assertThat(e.error().data().path("supported").get(0).asString()).isEqualTo("2099-01-01");
                });
        assertThat(upstream.executions("read_only_tool")).isZero();
        assertThat(callsOf("read_only_tool")).hasSize(1);
    }

    @Test
    void aRefusedDiscoverIsRetriedOnceWithTheVersionTheUpstreamLists() {
        upstream.refuseVersion("server/discover", 1);

        // a probe timeout under load would look like a legacy server: allow for a slow machine
        client = builder().probeTimeout(Duration.ofSeconds(15)).build().connect();

        assertThat(client.server().protocolVersion().wire()).isEqualTo("2026-07-28");
        List<RecordedRequest> discovers = upstream.requests().stream()
                .filter(r -> "server/discover".equals(r.rpcMethod())).toList();
        assertThat(discovers).hasSize(2);
        assertThat(new HashSet<>(discovers.stream().map(RecordedRequest::id).toList())).hasSize(2);
    }

    @Test
    void aRefusedCallIsRetriedOnceWithANewIdAndRunsOnce() {
        connect();
        upstream.refuseVersion("tools/call", 1);

        JsonNode result = client.callTool("read_only_tool", Json.object(), RequestOptions.defaults());

        assertThat(result.path("isError").asBoolean(false)).isFalse();
        assertThat(callsOf("read_only_tool")).hasSize(2);
        assertThat(new HashSet<>(upstream.requestIds("read_only_tool"))).hasSize(2);
        assertThat(upstream.executions("read_only_tool")).isEqualTo(1);
    }

    @Test
    void anUpstreamThatKeepsRefusingAVersionItListsFailsAtConnect() {
        upstream.refuseVersion("server/discover", 2);

        assertThatThrownBy(() -> builder().probeTimeout(Duration.ofSeconds(15)).build().connect()).isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("refused protocol version 2026-07-28 twice");
    }

    @Test
    void anUpstreamWithNoVersionInCommonFailsClearlyAtConnectInsteadOfTryingLegacy() {
        upstream.supportedVersions("2099-01-01");

        assertThatThrownBy(this::connect).isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("2099-01-01").hasMessageContaining("2026-07-28");
        assertThat(upstream.requests()).extracting(RecordedRequest::rpcMethod).containsOnly("server/discover");
    }

    @Test
    void listResultsAreCachedForTheirTtl() {
        upstream.ttlMs(60_000);
        connect();

        client.listTools();
        client.listTools();

        assertThat(upstream.calls("tools/list")).isEqualTo(1);
    }

    @Test
    void aZeroTtlMeansFetchEveryTime() {
        upstream.ttlMs(0);
        connect();

        client.listTools();
        client.listTools();

        assertThat(upstream.calls("tools/list")).isEqualTo(2);
    }

    @Test
    void aTimedOutRequestIsCancelledByClosingItsStreamNotByANotification() {
        connect();
        upstream.delay("plain_tool", Duration.ofSeconds(2));
        long started = System.nanoTime();

        assertThatThrownBy(() -> client.callTool("plain_tool", Json.object(),
                RequestOptions.defaults().withTimeout(Duration.ofMillis(300))))
                .isInstanceOf(RequestTimeoutException.class);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThat(upstream.requests()).extracting(RecordedRequest::rpcMethod).doesNotContain("notifications/cancelled");
    }

    @Test
    void progressFromTheResponseStreamReachesTheCaller() {
        connect();
        List<ObjectNode> progress = new CopyOnWriteArrayList<>();

        client.callTool("plain_tool", Json.object(), RequestOptions.defaults().withProgress(progress::add));

        assertThat(progress).hasSize(1);
        assertThat(progress.getFirst().path("progress").asInt()).isEqualTo(1);
    }
}

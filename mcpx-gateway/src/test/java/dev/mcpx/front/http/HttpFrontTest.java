package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpFrontTest {

    private LegacyHttpUpstream legacyUpstream;
    private ModernHttpUpstream modernUpstream;
    private Gateway gateway;
    private HttpFront front;
    private HttpFront guarded;

    @BeforeAll
    void start() throws Exception {
        legacyUpstream = LegacyHttpUpstream.started();
        modernUpstream = ModernHttpUpstream.start();
        gateway = Gateway.start(TestGateways.config(
                TestGateways.fake("fake"),
                TestGateways.withPrefix(UpstreamConfig.of("legacy", http(legacyUpstream.url().toString())), "lh"),
                TestGateways.withPrefix(UpstreamConfig.of("modern", http(modernUpstream.url().toString())), "mh")),
                TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        guarded = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.token("s3cret"), Duration.ofMillis(200));
    }

    private static UpstreamEndpoint.Http http(String url) {
        return UpstreamEndpoint.Http.of(url);
    }

    @AfterAll
    void stop() throws Exception {
        front.close();
        guarded.close();
        gateway.close();
        legacyUpstream.close();
        modernUpstream.close();
    }

    private static List<String> toolNames(Exchange list) {
        List<String> names = new ArrayList<>();
        list.reply().path("result").path("tools").forEach(tool -> names.add(tool.path("name").asString()));
        return names;
    }

    @Test
    void aLegacyHostUsesEveryKindOfUpstreamThroughOneSession() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        Exchange init = host.initialize();
        assertThat(init.status()).isEqualTo(200);
        assertThat(host.sessionId()).isNotBlank();
        assertThat(init.reply().path("result").path("protocolVersion").asString()).isEqualTo("2025-11-25");

        Exchange tools = host.request("tools/list", null);
        assertThat(toolNames(tools)).contains("fake__echo", "lh__echo", "mh__read_only_tool");

        assertThat(host.call("fake__echo", Json.object().put("text", "a")).text()).isEqualTo("Echo: a");
        assertThat(host.call("lh__echo", Json.object().put("text", "b")).text()).isEqualTo("b");
        assertThat(host.call("mh__read_only_tool", Json.object()).text()).startsWith("read_only_tool execution");
    }

    @Test
    void aModernHostUsesEveryKindOfUpstreamStatelessly() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        Exchange discover = host.request("server/discover", null);
        assertThat(discover.status()).isEqualTo(200);
        assertThat(discover.reply().path("result").path("supportedVersions").toString()).contains("2026-07-28");
        assertThat(discover.headers()).doesNotContainKey("mcp-session-id");

        Exchange tools = host.request("tools/list", null);
        assertThat(tools.reply().path("result").path("resultType").asString()).isEqualTo("complete");
        assertThat(tools.reply().path("result").path("cacheScope").asString()).isEqualTo("private");
        assertThat(toolNames(tools)).contains("fake__echo", "lh__echo", "mh__read_only_tool");

        Exchange legacyCall = host.call("lh__echo", Json.object().put("text", "c"));
        assertThat(legacyCall.text()).isEqualTo("c");
        assertThat(legacyCall.reply().path("result").path("resultType").asString()).isEqualTo("complete");
        assertThat(host.call("mh__read_only_tool", Json.object()).text()).startsWith("read_only_tool execution");
        assertThat(host.call("fake__add", Json.object().put("a", 1).put("b", 2)).text()).isEqualTo("3");
    }

    @Test
    void resourcesRouteByUriAndPromptsByNamespacedName() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        Exchange resources = host.request("resources/list", null);
        assertThat(resources.reply().path("result").path("resources").toString())
                .contains("test://static").contains("file:///docs/readme.md");

        Exchange read = host.request("resources/read", Json.object().put("uri", "test://static"));
        assertThat(read.reply().path("result").path("contents").path(0).path("text").asString()).isEqualTo("static text");
        Exchange modernRead = host.request("resources/read", Json.object().put("uri", "file:///docs/readme.md"));
        assertThat(modernRead.reply().path("result").path("contents").toString()).contains("# readme");
        Exchange missing = host.request("resources/read", Json.object().put("uri", "nowhere://x"));
        assertThat(missing.errorCode()).isEqualTo(-32002);

        assertThat(host.request("prompts/list", null).reply().path("result").path("prompts").toString())
                .contains("lh__greet").contains("mh__greeting");
        ObjectNode get = Json.object().put("name", "lh__greet");
        get.putObject("arguments").put("name", "Ada");
        Exchange prompt = host.request("prompts/get", get);
        assertThat(prompt.reply().path("result").path("messages").path(0).path("content").path("text").asString())
                .isEqualTo("Hello, Ada!");
    }

    @Test
    void toolErrorsAndUnknownFieldsPassThroughUnchanged() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        JsonNode failed = host.call("fake__fail", Json.object().put("why", "disk full")).reply();
        assertThat(failed.has("error")).isFalse();
        assertThat(failed.path("result").path("isError").asBoolean()).isTrue();
        assertThat(failed.path("result").path("content").path(0).path("text").asString()).isEqualTo("it failed: disk full");
        assertThat(failed.path("result").path("x-extra").path("kept").asBoolean()).isTrue();

        Exchange call = host.call("mh__plain_tool", Json.object().put("anything", 1));
        JsonNode result = call.reply().path("result");
        assertThat(result.path("isError").asBoolean()).isFalse();
        assertThat(result.path("structuredContent").path("arguments").path("anything").asInt()).isEqualTo(1);
        assertThat(result.path("structuredContent").path("tool").asString()).isEqualTo("plain_tool");
    }

    @Test
    void progressFlowsBackOnTheCallsStream() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        ObjectNode params = Json.object().put("name", "fake__progress");
        params.putObject("arguments").put("steps", 3);
        params.putObject("_meta").put("progressToken", 77);
        Exchange call = host.request("tools/call", params);
        assertThat(call.messages()).filteredOn(m -> m.path("method").asString("").equals("notifications/progress"))
                .hasSize(3).allSatisfy(m -> assertThat(m.path("params").path("progressToken").asInt()).isEqualTo(77));
        assertThat(call.text()).isEqualTo("done in 3 steps");
    }

    @Test
    void modernHeadersAreValidated() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/list");
        body.putObject("params").putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        HttpResponse<String> noMethod = host.raw(HttpRequest.newBuilder(front.mcpUri())
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build());
        assertThat(noMethod.statusCode()).isEqualTo(400);
        assertThat(Json.parse(noMethod.body()).path("error").path("code").asInt()).isEqualTo(-32020);

        ObjectNode wrongName = Json.object().put("jsonrpc", "2.0").put("id", 2).put("method", "tools/call");
        ObjectNode params = wrongName.putObject("params").put("name", "fake__echo");
        params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        HttpResponse<String> mismatch = host.raw(host.builder(wrongName, "tools/call").setHeader("Mcp-Name", "other").build());
        assertThat(mismatch.statusCode()).isEqualTo(400);
        assertThat(Json.parse(mismatch.body()).path("error").path("code").asInt()).isEqualTo(-32020);

        ObjectNode future = Json.object().put("jsonrpc", "2.0").put("id", 3).put("method", "tools/list");
        future.putObject("params").putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2099-01-01");
        HttpResponse<String> unsupported = host.raw(host.builder(future, "tools/list")
                .setHeader("MCP-Protocol-Version", "2099-01-01").build());
        assertThat(unsupported.statusCode()).isEqualTo(400);
        JsonNode error = Json.parse(unsupported.body()).path("error");
        assertThat(error.path("code").asInt()).isEqualTo(-32022);
        assertThat(error.path("data").path("supported").toString()).isEqualTo("[\"2026-07-28\"]");
        assertThat(error.path("data").path("requested").asString()).isEqualTo("2099-01-01");

        Exchange unknownMethod = host.request("no/such/method", null);
        assertThat(unknownMethod.status()).isEqualTo(404);
        assertThat(unknownMethod.errorCode()).isEqualTo(-32601);
        for (String removed : List.of("ping", "logging/setLevel", "resources/subscribe", "initialize")) {
            Exchange gone = host.request(removed, Json.object().put("uri", "test://static"));
            assertThat(gone.status()).as(removed).isEqualTo(404);
            assertThat(gone.errorCode()).as(removed).isEqualTo(-32601);
        }

        ObjectNode bare = Json.object().put("jsonrpc", "2.0").put("id", 4).put("method", "tools/list");
        bare.putObject("params");
        HttpResponse<String> noMeta = host.raw(host.builder(bare, "tools/list").build());
        assertThat(noMeta.statusCode()).isEqualTo(400);
        assertThat(Json.parse(noMeta.body()).path("error").path("code").asInt()).isEqualTo(-32602);
    }

    @Test
    void mirroredParamHeadersMustMatchTheArguments() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        host.request("tools/list", null);
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 5).put("method", "tools/call");
        ObjectNode params = body.putObject("params").put("name", "mh__header_tool");
        params.putObject("arguments").put("region", "us-west1").put("count", 42);
        params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");

        HttpResponse<String> missing = host.raw(host.builder(body, "tools/call").build());
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(Json.parse(missing.body()).path("error").path("code").asInt()).isEqualTo(-32020);

        HttpResponse<String> wrong = host.raw(host.builder(body, "tools/call")
                .header("Mcp-Param-Region", "eu-north1").header("Mcp-Param-Count", "42").build());
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(Json.parse(wrong.body()).path("error").path("message").asString()).contains("Mcp-Param-Region");

        HttpResponse<String> unpadded = host.raw(host.builder(body, "tools/call")
                .header("Mcp-Param-Region", "=?base64?dXMtd2VzdDE?=").header("Mcp-Param-Count", "42").build());
        assertThat(unpadded.statusCode()).isEqualTo(400);

        HttpResponse<String> encoded = host.raw(host.builder(body, "tools/call")
                .header("Mcp-Param-Region", "=?base64?dXMtd2VzdDE=?=").header("Mcp-Param-Count", "42").build());
        assertThat(encoded.statusCode()).isEqualTo(200);

        HttpResponse<String> right = host.raw(host.builder(body, "tools/call")
                .header("Mcp-Param-Region", "us-west1").header("Mcp-Param-Count", "42.0").build());
        assertThat(right.statusCode()).isEqualTo(200);
        assertThat(HttpHost.exchange(right).text()).startsWith("header_tool execution");
    }

    @Test
    void anUnknownOrDeletedSessionIs404() throws Exception {
        HttpHost stranger = HttpHost.legacy(front.mcpUri());
        stranger.sessionId("not-a-session");
        assertThat(stranger.request("tools/list", null).status()).isEqualTo(404);

        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        assertThat(host.request("tools/list", null).status()).isEqualTo(200);
        HttpResponse<String> deleted = host.raw(HttpRequest.newBuilder(front.mcpUri())
                .header("Mcp-Session-Id", host.sessionId()).DELETE().build());
        assertThat(deleted.statusCode()).isEqualTo(200);
        assertThat(host.request("tools/list", null).status()).isEqualTo(404);

        HttpHost sessionless = HttpHost.legacy(front.mcpUri());
        assertThat(sessionless.request("tools/list", null).status()).isEqualTo(400);
    }

    @Test
    void aForeignOriginIsForbidden() throws Exception {
        HttpHost evil = HttpHost.legacy(front.mcpUri()).headers(Map.of("Origin", "http://evil.example"));
        Exchange refused = evil.request("initialize", Json.object());
        assertThat(refused.status()).isEqualTo(403);

        HttpHost local = HttpHost.legacy(front.mcpUri()).headers(Map.of("Origin", "http://localhost:5173"));
        assertThat(local.initialize().status()).isEqualTo(200);
    }

    @Test
    void aConfiguredTokenIsRequired() throws Exception {
        HttpHost anonymous = HttpHost.modern(guarded.mcpUri());
        Exchange refused = anonymous.request("tools/list", null);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.headers().get("www-authenticate")).contains("Bearer");

        HttpHost wrong = HttpHost.modern(guarded.mcpUri()).headers(Map.of("Authorization", "Bearer s3cres"));
        assertThat(wrong.request("tools/list", null).status()).isEqualTo(401);

        HttpHost known = HttpHost.modern(guarded.mcpUri()).headers(Map.of("Authorization", "Bearer s3cret"));
        assertThat(known.request("tools/list", null).status()).isEqualTo(200);
    }

    @Test
    void statusShowsEveryUpstreamWithItsCounters() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        host.call("fake__echo", Json.object().put("text", "count me"));
        HttpResponse<String> status = host.raw(HttpRequest.newBuilder(front.mcpUri().resolve("/status")).GET().build());
        assertThat(status.statusCode()).isEqualTo(200);
        JsonNode upstreams = Json.parse(status.body()).path("upstreams");
        assertThat(upstreams.size()).isEqualTo(3);
        JsonNode fake = upstreams.path(0);
        assertThat(fake.path("name").asString()).isEqualTo("fake");
        assertThat(fake.path("transport").asString()).isEqualTo("stdio");
        assertThat(fake.path("era").asString()).isEqualTo("legacy");
        assertThat(fake.path("protocolVersion").asString()).isEqualTo("2025-11-25");
        assertThat(fake.path("state").asString()).isEqualTo("up");
        assertThat(fake.path("pid").asLong()).isPositive();
        assertThat(fake.path("requests").asLong()).isPositive();
        for (String counter : List.of("reinitializations", "reissues", "restarts", "errors")) {
            assertThat(fake.has(counter)).as(counter).isTrue();
        }
        assertThat(upstreams.path(2).path("era").asString()).isEqualTo("modern");
        assertThat(upstreams.path(2).path("transport").asString()).isEqualTo("http");
    }

    @Test
    void aHostThatDisconnectsMidCallCancelsTheUpstreamCall() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        host.request("tools/list", null);
        long callsBefore = Long.parseLong(host.call("fake__calls", Json.object()).text());
        long cancelledBefore = Long.parseLong(host.call("fake__cancellations", Json.object()).text());
        Socket socket = sleepingCall(9);
        try {
            // the host goes away only once its call runs upstream: one more call than before, and this one
            await().atMost(Duration.ofSeconds(20)).until(() ->
                    Long.parseLong(host.call("fake__calls", Json.object()).text()) >= callsBefore + 2);
        } finally {
            socket.close();
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(Long.parseLong(host.call("fake__cancellations", Json.object()).text())).isGreaterThan(cancelledBefore));
    }

    @Test
    void callsWaitingOnASlowUpstreamBeyondThePlatformThreadsDoNotHoldOtherHosts() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        long callsBefore = Long.parseLong(host.call("fake__calls", Json.object()).text());
        long cancelledBefore = Long.parseLong(host.call("fake__cancellations", Json.object()).text());
        int sleeping = HttpFront.PLATFORM_THREADS + 8;
        List<Socket> hosts = new ArrayList<>();
        try {
            for (int i = 0; i < sleeping; i++) {
                hosts.add(sleepingCall(100 + i));
            }
            // every sleeping call holds a front thread upstream, and still the host's next call is answered
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    Long.parseLong(host.call("fake__calls", Json.object()).text()) >= callsBefore + sleeping + 2);
            assertThat(host.call("fake__echo", Json.object().put("text", "through")).text()).isEqualTo("Echo: through");
        } finally {
            for (Socket socket : hosts) {
                socket.close();
            }
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(Long.parseLong(host.call("fake__cancellations", Json.object()).text()))
                        .isGreaterThanOrEqualTo(cancelledBefore + sleeping));
    }

    /** A host on a socket of its own, in a 30 s call it never waits out. */
    private Socket sleepingCall(int id) throws Exception {
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        ObjectNode params = body.putObject("params").put("name", "fake__sleep");
        params.putObject("arguments").put("ms", 30_000);
        params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        byte[] payload = Json.write(body).getBytes(StandardCharsets.UTF_8);
        Socket socket = new Socket("127.0.0.1", front.port());
        OutputStream out = socket.getOutputStream();
        out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                + "Mcp-Method: tools/call\r\nMcp-Name: fake__sleep\r\nContent-Length: " + payload.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(payload);
        out.flush();
        return socket;
    }
}

package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** What a host sees from the HTTP front's status codes and header checks, as the transport pages demand them. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpFrontAnswersTest {

    private ModernHttpUpstream modernUpstream;
    private Gateway gateway;
    private HttpFront front;

    @BeforeAll
    void start() throws Exception {
        modernUpstream = ModernHttpUpstream.start();
        gateway = Gateway.start(TestGateways.config(
                TestGateways.fake("fake"),
                TestGateways.withPrefix(UpstreamConfig.of("modern", UpstreamEndpoint.Http.of(modernUpstream.url().toString())), "mh")),
                TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
    }

    @AfterAll
    void stop() throws Exception {
        front.close();
        gateway.close();
        modernUpstream.close();
    }

    private HttpRequest.Builder post(String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(front.mcpUri())
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return request;
    }

    private static ObjectNode modernBody(int id, String method, String version) {
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", method);
        body.putObject("params").putObject("_meta").put("io.modelcontextprotocol/protocolVersion", version)
                .putObject("io.modelcontextprotocol/clientCapabilities");
        return body;
    }

    @Test
    void aLegacySessionsNotificationsAndResponsesAre202WithNoBody() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        Map<String, String> session = Map.of("Mcp-Session-Id", host.sessionId(), "MCP-Protocol-Version", "2025-11-25");

        HttpResponse<String> notification = host.raw(post(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}", session).build());
        assertThat(notification.statusCode()).isEqualTo(202);
        assertThat(notification.body()).isEmpty();

        HttpResponse<String> response = host.raw(post("{\"jsonrpc\":\"2.0\",\"id\":\"nobody-asked\",\"result\":{}}", session).build());
        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void aModernNotificationIs202WithNoBody() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        HttpResponse<String> accepted = host.raw(post(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":42}}",
                Map.of("MCP-Protocol-Version", "2026-07-28")).build());
        assertThat(accepted.statusCode()).isEqualTo(202);
        assertThat(accepted.body()).isEmpty();
    }

    @Test
    void inputTheFrontCannotAcceptIsAnHttpErrorWithAJsonRpcError() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        Map<String, String> legacy = Map.of("Mcp-Session-Id", host.sessionId(), "MCP-Protocol-Version", "2025-11-25");
        Map<String, String> modern = Map.of("MCP-Protocol-Version", "2026-07-28");
        Map<String, Integer> refused = Map.of(
                "{\"jsonrpc\":\"2.0\",\"method\":", -32700,
                "[]", -32600,
                "{\"jsonrpc\":\"1.0\",\"method\":\"notifications/initialized\"}", -32600);
        for (Map<String, String> headers : List.of(legacy, modern)) {
            for (Map.Entry<String, Integer> input : refused.entrySet()) {
                HttpResponse<String> answer = host.raw(post(input.getKey(), headers).build());
                assertThat(answer.statusCode()).as(input.getKey() + " with " + headers).isEqualTo(400);
                assertThat(Json.parse(answer.body()).path("error").path("code").asInt()).as(input.getKey())
                        .isEqualTo(input.getValue());
            }
        }
        HttpResponse<String> unknownSession = host.raw(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                Map.of("Mcp-Session-Id", "no-such-session", "MCP-Protocol-Version", "2025-11-25")).build());
        assertThat(unknownSession.statusCode()).isEqualTo(404);
    }

    @Test
    void aLegacyRequestWithAnUnsupportedVersionHeaderIs400() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        String toolsList = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
        for (String version : List.of("1999-01-01", "not-a-version", "2026-07-28")) {
            HttpResponse<String> inSession = host.raw(post(toolsList,
                    Map.of("Mcp-Session-Id", host.sessionId(), "MCP-Protocol-Version", version)).build());
            assertThat(inSession.statusCode()).as(version).isEqualTo(400);
        }
        HttpResponse<String> sessionless = host.raw(post(toolsList, Map.of("MCP-Protocol-Version", "1999-01-01")).build());
        assertThat(sessionless.statusCode()).isEqualTo(400);
        // the session itself is unharmed
        assertThat(host.request("tools/list", null).status()).isEqualTo(200);
    }

    @Test
    void initializeWithAVersionTheFrontDoesNotSpeakIsAnsweredWithOneItDoes() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        ObjectNode params = Json.object().put("protocolVersion", "1999-01-01");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "old-host").put("version", "1");
        Exchange init = host.request("initialize", params);
        assertThat(init.status()).isEqualTo(200);
        assertThat(init.reply().path("result").path("protocolVersion").asString()).isEqualTo("2025-11-25");

        params.put("protocolVersion", "2025-03-26");
        assertThat(host.request("initialize", params).reply().path("result").path("protocolVersion").asString())
                .isEqualTo("2025-03-26");
    }

    @Test
    void theOneEndpointTakesPostAndOpensTheSessionsGetStream() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        assertThat(host.initialize().status()).isEqualTo(200);
        HttpResponse<InputStream> listen = host.client().send(HttpRequest.newBuilder(front.mcpUri())
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", host.sessionId())
                .header("MCP-Protocol-Version", "2025-11-25").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream stream = listen.body()) {
            assertThat(listen.statusCode()).isEqualTo(200);
            assertThat(listen.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
            assertThat(listen.uri().getPath()).isEqualTo("/mcp");
        }
    }

    @Test
    void aVersionHeaderThatDisagreesWithTheBodyOrIsMissingIs400HeaderMismatch() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        HttpResponse<String> disagrees = host.raw(post(Json.write(modernBody(1, "tools/list", "2026-07-28")),
                Map.of("MCP-Protocol-Version", "2025-11-25", "Mcp-Method", "tools/list")).build());
        assertThat(disagrees.statusCode()).isEqualTo(400);
        assertThat(Json.parse(disagrees.body()).path("error").path("code").asInt()).isEqualTo(-32020);

        HttpResponse<String> bodyOlder = host.raw(post(Json.write(modernBody(2, "tools/list", "2025-11-25")),
                Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list")).build());
        assertThat(bodyOlder.statusCode()).isEqualTo(400);
        assertThat(Json.parse(bodyOlder.body()).path("error").path("code").asInt()).isEqualTo(-32020);

        HttpResponse<String> missing = host.raw(post(Json.write(modernBody(3, "tools/list", "2026-07-28")),
                Map.of("Mcp-Method", "tools/list")).build());
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(Json.parse(missing.body()).path("error").path("code").asInt()).isEqualTo(-32020);
    }

    private static ObjectNode headerToolCall(ObjectNode arguments) {
        ObjectNode body = modernBody(5, "tools/call", "2026-07-28");
        ((ObjectNode) body.get("params")).put("name", "mh__header_tool").set("arguments", arguments);
        return body;
    }

    @Test
    void paramHeadersAreExpectedExactlyForTheValuesTheBodyCarries() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        host.request("tools/list", null);

        // null and absent values expect no header
        ObjectNode nullAndAbsent = Json.object().putNull("region").put("query", "q");
        HttpResponse<String> noHeaders = host.raw(host.builder(headerToolCall(nullAndAbsent), "tools/call").build());
        assertThat(noHeaders.statusCode()).isEqualTo(200);
        assertThat(HttpHost.exchange(noHeaders).text()).startsWith("header_tool execution");

        // a provided value needs its header, matching
        ObjectNode withVerbose = Json.object().put("verbose", true);
        HttpResponse<String> omitted = host.raw(host.builder(headerToolCall(withVerbose), "tools/call").build());
        assertThat(omitted.statusCode()).isEqualTo(400);
        assertThat(Json.parse(omitted.body()).path("error").path("code").asInt()).isEqualTo(-32020);
        HttpResponse<String> wrong = host.raw(host.builder(headerToolCall(withVerbose), "tools/call")
                .header("Mcp-Param-Verbose", "false").build());
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(Json.parse(wrong.body()).path("error").path("code").asInt()).isEqualTo(-32020);
        HttpResponse<String> right = host.raw(host.builder(headerToolCall(withVerbose), "tools/call")
                .header("Mcp-Param-Verbose", "true").build());
        assertThat(right.statusCode()).isEqualTo(200);

        // a Base64 sentinel is decoded before it is compared
        ObjectNode unsafe = Json.object().put("region", " café ");
        String sentinel = "=?base64?" + Base64.getEncoder().encodeToString(" café ".getBytes(StandardCharsets.UTF_8)) + "?=";
        HttpResponse<String> encoded = host.raw(host.builder(headerToolCall(unsafe), "tools/call")
                .header("Mcp-Param-Region", sentinel).build());
        assertThat(encoded.statusCode()).isEqualTo(200);
        HttpResponse<String> encodedWrong = host.raw(host.builder(headerToolCall(unsafe), "tools/call")
                .header("Mcp-Param-Region", "=?base64?" + Base64.getEncoder().encodeToString("cafe".getBytes(StandardCharsets.UTF_8)) + "?=").build());
        assertThat(encodedWrong.statusCode()).isEqualTo(400);
        assertThat(Json.parse(encodedWrong.body()).path("error").path("code").asInt()).isEqualTo(-32020);
    }

    @Test
    void aRecognizedParamHeaderWithCharactersOutsideTheSafeSetIsRefused() throws Exception {
        HttpHost.modern(front.mcpUri()).request("tools/list", null);
        ObjectNode body = headerToolCall(Json.object().put("region", "café"));
        byte[] payload = Json.write(body).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        head.writeBytes(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                + "Mcp-Method: tools/call\r\nMcp-Name: mh__header_tool\r\nConnection: close\r\nMcp-Param-Region: ")
                .getBytes(StandardCharsets.US_ASCII));
        // the value raw, as UTF-8 bytes: a client must have sent it as a Base64 sentinel
        head.writeBytes("café".getBytes(StandardCharsets.UTF_8));
        head.writeBytes(("\r\nContent-Length: " + payload.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        try (Socket socket = new Socket("127.0.0.1", front.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.toByteArray());
            out.write(payload);
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 400");
            assertThat(answer).contains("-32020");
        }
    }

    @Test
    void anEncodedMcpNameIsDecodedBeforeItIsCompared() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        String uri = "file:///docs/café menu.txt";
        ObjectNode body = modernBody(6, "resources/read", "2026-07-28");
        ((ObjectNode) body.get("params")).put("uri", uri);
        String sentinel = "=?base64?" + Base64.getEncoder().encodeToString(uri.getBytes(StandardCharsets.UTF_8)) + "?=";
        HttpResponse<String> read = host.raw(host.builder(body, "resources/read").setHeader("Mcp-Name", sentinel).build());
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(HttpHost.exchange(read).reply().path("result").path("contents").toString()).contains("soup of the day");

        String other = "=?base64?" + Base64.getEncoder().encodeToString("file:///docs/readme.md".getBytes(StandardCharsets.UTF_8)) + "?=";
        HttpResponse<String> mismatch = host.raw(host.builder(body, "resources/read").setHeader("Mcp-Name", other).build());
        assertThat(mismatch.statusCode()).isEqualTo(400);
        assertThat(Json.parse(mismatch.body()).path("error").path("code").asInt()).isEqualTo(-32020);
    }

    @Test
    void aToolWhoseHeaderAnnotationsBreakTheRulesIsNotOffered() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        List<String> names = new ArrayList<>();
        host.request("tools/list", null).reply().path("result").path("tools")
                .forEach(tool -> names.add(tool.path("name").asString()));
        assertThat(names).contains("mh__header_tool").doesNotContain("mh__invalid_header_tool");
        HttpHost legacy = HttpHost.legacy(front.mcpUri());
        legacy.initialize();
        assertThat(legacy.request("tools/list", null).reply().path("result").path("tools").toString())
                .contains("mh__header_tool").doesNotContain("mh__invalid_header_tool");
        JsonNode offered = host.request("tools/list", null).reply();
        offered.path("result").path("tools").forEach(tool -> tool.path("inputSchema").path("properties").forEach(property ->
                assertThat(property.path("x-mcp-header").asString("Unset")).isNotEmpty()));
    }

    @Test
    void aListenStreamTheFrontTearsDownEndsWithACancellationNamingIt() throws Exception {
        HttpFront closing = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        HttpHost host = HttpHost.modern(closing.mcpUri());
        ObjectNode listen = modernBody(0, "subscriptions/listen", "2026-07-28");
        listen.put("id", "listen-1");
        ((ObjectNode) listen.get("params")).putObject("notifications").put("toolsListChanged", true);
        java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.concurrent.CompletableFuture<Void> ended = host.client()
                .sendAsync(host.builder(listen, "subscriptions/listen").build(), HttpResponse.BodyHandlers.ofLines())
                .thenAccept(response -> response.body().forEach(lines::add));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> lines.stream().anyMatch(line -> line.contains("notifications/subscriptions/acknowledged")));

        closing.close();
        ended.get(20, java.util.concurrent.TimeUnit.SECONDS);
        List<JsonNode> cancellations = lines.stream().filter(line -> line.startsWith("data:") && line.contains("notifications/cancelled"))
                .map(line -> Json.parse(line.substring(5).trim())).toList();
        assertThat(cancellations).singleElement()
                .satisfies(c -> assertThat(c.path("params").path("requestId").asString()).isEqualTo("listen-1"));
    }

    @Test
    void aModernCallWhoseStreamTheHostClosedGetsNoFurtherMessages() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        ObjectNode listen = modernBody(0, "subscriptions/listen", "2026-07-28");
        listen.put("id", "listen-2");
        ((ObjectNode) listen.get("params")).putObject("notifications").put("toolsListChanged", true);
        java.util.concurrent.BlockingQueue<String> listened = new java.util.concurrent.LinkedBlockingQueue<>();
        host.client().sendAsync(host.builder(listen, "subscriptions/listen").build(), HttpResponse.BodyHandlers.ofLines())
                .thenAccept(response -> response.body().forEach(listened::add));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> listened.stream().anyMatch(line -> line.contains("notifications/subscriptions/acknowledged")));

        long cancelledBefore = Long.parseLong(host.call("fake__cancellations", Json.object()).text());
        long callsBefore = Long.parseLong(host.call("fake__calls", Json.object()).text());
        // the fake answers its sleep after 3 s, cancelled or not
        ObjectNode body = modernBody(0, "tools/call", "2026-07-28");
        body.put("id", "doomed-7");
        ((ObjectNode) body.get("params")).put("name", "fake__sleep").putObject("arguments").put("ms", 3_000);
        byte[] payload = Json.write(body).getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", front.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                    + "Mcp-Method: tools/call\r\nMcp-Name: fake__sleep\r\nContent-Length: " + payload.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(payload);
            out.flush();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() ->
                    Long.parseLong(host.call("fake__calls", Json.object()).text()) >= callsBefore + 2);
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                Long.parseLong(host.call("fake__cancellations", Json.object()).text()) > cancelledBefore);

        // past the fake's late answer, nothing about the call reaches the host on the stream it still has open
        org.awaitility.Awaitility.await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(8))
                .until(() -> listened.stream().noneMatch(line -> line.contains("doomed-7") || line.contains("slept")));
    }
}

package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the legacy SSE tests share: a legacy upstream behind one gateway, a fresh front per test
 * (with the SSE settings the test needs), legacy sessions, and reading {@code /status}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LegacySseFixture {

    static final Duration AWAIT = Duration.ofSeconds(20);

    LegacyHttpUpstream upstream;
    Gateway gateway;
    private final List<HttpFront> fronts = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        upstream = LegacyHttpUpstream.started();
        gateway = Gateway.start(TestGateways.config(upstreamNamed("legacy", "lh")), TestGateways.settings(), Map.of());
    }

    UpstreamConfig upstreamNamed(String name, String prefix) {
        return TestGateways.withPrefix(UpstreamConfig.of(name, UpstreamEndpoint.Http.of(upstream.url().toString())),
                prefix);
    }

    @AfterEach
    void closeFronts() {
        fronts.forEach(HttpFront::close);
        fronts.clear();
    }

    @AfterAll
    void stop() {
        gateway.close();
        upstream.close();
    }

    HttpFront front(SseSettings settings) throws Exception {
        HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200),
                settings);
        fronts.add(front);
        return front;
    }

    HttpFront front() throws Exception {
        return front(SseSettings.DEFAULTS);
    }

    /** The defaults but for how long a stream whose answer was written stays resumable. */
    HttpFront lingering(Duration linger) throws Exception {
        SseSettings d = SseSettings.DEFAULTS;
        return front(new SseSettings(d.jsonWindow(), d.retry(), d.maxEvents(), d.maxBytes(), d.grace(), linger));
    }

    static HttpHost session(HttpFront front) throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        ObjectNode params = Json.object().put("protocolVersion", "2025-11-25");
        params.putObject("capabilities").putObject("elicitation");
        params.putObject("clientInfo").put("name", "resuming-host").put("version", "1");
        Exchange init = host.request("initialize", params);
        host.sessionId(init.headers().get("mcp-session-id").getFirst());
        host.send(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"), null);
        return host;
    }

    static String call(int id, String tool, ObjectNode arguments, Object progressToken) {
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        ObjectNode params = body.putObject("params").put("name", tool);
        params.set("arguments", arguments);
        if (progressToken != null) {
            params.putObject("_meta").put("progressToken", progressToken.toString());
        }
        return Json.write(body);
    }

    static String slow(int id, long ms) {
        return call(id, "lh__slow", Json.object().put("ms", ms), null);
    }

    /** Starts a call, reads its priming event, and drops the connection like a host losing its network. */
    static SseSocket.Event startAndDrop(HttpFront front, HttpHost host, String call) throws Exception {
        try (SseSocket post = SseSocket.post(front.port(), host.sessionId(), call)) {
            assertThat(post.contentType()).startsWith("text/event-stream");
            SseSocket.Event priming = post.next();
            assertThat(priming.isPriming()).as("first event %s", priming).isTrue();
            return priming;
        }
    }

    static List<JsonNode> messages(List<SseSocket.Event> events) {
        return events.stream().filter(event -> event.data() != null && !event.data().isEmpty())
                .map(event -> Json.parse(event.data())).toList();
    }

    static JsonNode sse(HttpFront front) throws Exception {
        URI status = URI.create("http://127.0.0.1:" + front.port() + "/status");
        HttpResponse<String> response = HttpHost.legacy(status).client().send(HttpRequest.newBuilder(status).build(),
                HttpResponse.BodyHandlers.ofString());
        return Json.parse(response.body()).path("sse");
    }

    static String streamOf(String eventId) {
        return eventId.substring(0, eventId.indexOf('-'));
    }
}

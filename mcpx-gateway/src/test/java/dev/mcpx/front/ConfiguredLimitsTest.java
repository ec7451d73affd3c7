package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.ConfigLoader;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every {@code mcpx.limits} key, set low in a real config file, gives hosts its own clear error
 * (naming the limit) end to end, and the host's session carries on afterwards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConfiguredLimitsTest {

    private static final int MAX_MESSAGE = 8192;
    private static final int MAX_SSE_EVENT = 4096;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(4);

    private Path dir;
    private ModernHttpUpstream modern;
    private Gateway gateway;
    private HttpFront front;

    @BeforeAll
    void start() throws Exception {
        dir = Files.createTempDirectory("mcpx-limits");
        modern = ModernHttpUpstream.start().sseForEverything(true);
        ObjectNode root = Json.object();
        root.putObject("mcpx").putObject("limits")
                .put("maxMessageBytes", MAX_MESSAGE)
                .put("maxSseEventBytes", MAX_SSE_EVENT)
                .put("maxHeaderBytes", 2048)
                .put("maxConcurrentCallsPerHost", 2)
                .put("requestTimeoutMs", REQUEST_TIMEOUT.toMillis());
        ObjectNode servers = root.putObject("mcpServers");
        ObjectNode fake = servers.putObject("fake").put("command", TestGateways.java());
        ArrayNode args = fake.putArray("args");
        List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                StdioFakeServer.class.getName()).forEach(args::add);
        servers.putObject("modern").put("url", modern.url().toString());
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, Json.write(root), StandardCharsets.UTF_8);

        GatewayConfig config = new ConfigLoader(Map.of()).load(file);
        gateway = Gateway.start(config, TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        // the fake's JVM may miss the short requestTimeoutMs at its first initialize on a loaded machine (seen at load 17)
        await().atMost(Duration.ofSeconds(90)).until(() -> gateway.status().stream().allMatch(upstream -> upstream.state().equals("up")));
    }

    @AfterAll
    void stop() {
        front.close();
        gateway.close();
        modern.close();
        try (var files = Files.list(dir)) {
            files.forEach(file -> file.toFile().delete());
        } catch (java.io.IOException e) {
            // a temp dir left behind is harmless
        }
        dir.toFile().delete();
    }

    @Test
    void aHostBodyOverMaxMessageBytesIs413NamingTheLimit() throws Exception {
        HttpHost host = legacyHost();
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 99).put("method", "tools/call");
        body.putObject("params").put("name", "fake__echo").putObject("arguments").put("text", "x".repeat(MAX_MESSAGE));
        HttpResponse<String> tooLarge = host.raw(host.builder(body, "tools/call").build());
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(Json.parse(tooLarge.body()).path("error").path("message").asString()).contains("maxMessageBytes");
        assertSessionCarriesOn(host);
    }

    @Test
    void headersOverMaxHeaderBytesAre431() throws Exception {
        HttpHost host = legacyHost();
        ObjectNode ping = Json.object().put("jsonrpc", "2.0").put("id", 98).put("method", "ping");
        HttpResponse<String> tooLarge = host.raw(host.builder(ping, "ping").header("X-Big", "a".repeat(3000)).build());
        assertThat(tooLarge.statusCode()).isEqualTo(431);
        assertSessionCarriesOn(host);
    }

    @Test
    void aCallOverMaxConcurrentCallsPerHostGetsTooManyCalls() throws Exception {
        HttpHost host = legacyHost();
        long sentBefore = requestsTo("fake");
        List<CompletableFuture<HttpHost.Exchange>> slow = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            slow.add(CompletableFuture.supplyAsync(() -> call(host, "fake__sleep", Json.object().put("ms", 3000))));
        }
        // the third call comes only once both slow ones run upstream
        await().atMost(Duration.ofSeconds(20)).until(() -> requestsTo("fake") >= sentBefore + 2);
        HttpHost.Exchange refused = host.call("fake__echo", Json.object().put("text", "third"));
        assertThat(refused.errorCode()).isEqualTo(-32005);
        assertThat(refused.reply().path("error").path("message").asString()).contains("maxConcurrentCallsPerHost");
        for (CompletableFuture<HttpHost.Exchange> call : slow) {
            assertThat(call.get().reply().has("result")).isTrue();
        }
        assertSessionCarriesOn(host);
    }

    @Test
    void anUpstreamAnswerOverMaxMessageBytesFailsItsCallNamingTheLimit() throws Exception {
        HttpHost host = legacyHost();
        long start = System.nanoTime();
        HttpHost.Exchange huge = host.call("fake__huge", Json.object().put("bytes", 4 * MAX_MESSAGE));
        assertThat(huge.reply().has("error")).isTrue();
        assertThat(huge.reply().path("error").path("message").asString()).contains("maxMessageBytes");
        // told at once, not left to its timeout
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(REQUEST_TIMEOUT);
        assertSessionCarriesOn(host);
    }

    @Test
    void anUpstreamSseEventOverMaxSseEventBytesFailsItsCallNamingTheLimit() throws Exception {
        HttpHost host = legacyHost();
        HttpHost.Exchange big = host.call("modern__read_only_tool", Json.object().put("pad", "p".repeat(MAX_SSE_EVENT)));
        assertThat(big.reply().has("error")).isTrue();
        assertThat(big.reply().path("error").path("message").asString()).contains("maxSseEventBytes");
        HttpHost.Exchange small = host.call("modern__read_only_tool", Json.object().put("pad", "p"));
        assertThat(small.reply().has("result")).isTrue();
        assertSessionCarriesOn(host);
    }

    @Test
    void requestTimeoutMsBoundsEveryUpstreamWithoutItsOwn() throws Exception {
        HttpHost host = legacyHost();
        HttpHost.Exchange slow = host.call("fake__sleep", Json.object().put("ms", 30_000));
        assertThat(slow.errorCode()).isEqualTo(-32001);
        assertThat(gateway.config().upstream("fake").orElseThrow().requestTimeout()).isEqualTo(REQUEST_TIMEOUT);
        assertSessionCarriesOn(host);
    }

    @Test
    void theStdioFrontKeepsTheSameLimits() throws Exception {
        try (LineHost host = stdioHost()) {
            ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
            init.putObject("capabilities");
            init.putObject("clientInfo").put("name", "stdio-host").put("version", "1");
            host.request("initialize", init);
            host.notify("notifications/initialized", null);

            String over = host.send("tools/call", callParams("fake__echo", Json.object().put("text", "y".repeat(MAX_MESSAGE))));
            // the line is skipped unread, so the error cannot name its id
            JsonNode refused = host.reply("null", Duration.ofSeconds(30));
            assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32600);
            assertThat(refused.path("error").path("message").asString()).contains("maxMessageBytes");
            assertThat(over).isNotEmpty();

            String first = host.send("tools/call", callParams("fake__sleep", Json.object().put("ms", 3000)));
            String second = host.send("tools/call", callParams("fake__sleep", Json.object().put("ms", 3000)));
            Thread.sleep(1000);
            JsonNode third = host.request("tools/call", callParams("fake__echo", Json.object().put("text", "third")));
            assertThat(third.path("error").path("code").asInt()).isEqualTo(-32005);
            assertThat(host.reply(first, Duration.ofSeconds(30)).has("result")).isTrue();
            assertThat(host.reply(second, Duration.ofSeconds(30)).has("result")).isTrue();
            JsonNode after = host.request("tools/call", callParams("fake__echo", Json.object().put("text", "after")));
            assertThat(after.path("result").path("content").get(0).path("text").asString()).isEqualTo("Echo: after");
        }
    }

    private HttpHost legacyHost() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        host.request("tools/list", null);
        return host;
    }

    private LineHost stdioHost() throws Exception {
        return LineHost.ofStdioFront(gateway);
    }

    private static void assertSessionCarriesOn(HttpHost host) throws Exception {
        HttpHost.Exchange echo = host.call("fake__echo", Json.object().put("text", "still here"));
        assertThat(echo.text()).isEqualTo("Echo: still here");
    }

    private static HttpHost.Exchange call(HttpHost host, String tool, ObjectNode arguments) {
        try {
            return host.call(tool, arguments);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode callParams(String tool, ObjectNode arguments) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        return params;
    }

    private long requestsTo(String upstream) {
        return gateway.status().stream().filter(s -> s.name().equals(upstream)).findFirst().orElseThrow().requests();
    }
}

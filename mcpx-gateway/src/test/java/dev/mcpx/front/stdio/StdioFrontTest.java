package dev.mcpx.front.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.protocol.Json;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StdioFrontTest {

    private Gateway gateway;
    private LineHost host;

    @BeforeAll
    void startGateway() {
        UpstreamConfig broken = UpstreamConfig.of("broken",
                new UpstreamEndpoint.Stdio("/nonexistent/mcp-server", List.of(), Map.of(), null, false));
        gateway = Gateway.start(TestGateways.config(
                TestGateways.fake("fake"),
                TestGateways.withPrefix(TestGateways.fake("modern", "--era", "modern"), "m"),
                broken), TestGateways.settings(), Map.of());
        // a list answers after a few seconds with what is up; at load 19 a fake JVM took longer than that
        await().atMost(Duration.ofSeconds(90)).until(() -> gateway.status().stream()
                .filter(upstream -> !upstream.name().equals("broken")).allMatch(upstream -> upstream.state().equals("up")));
    }

    @AfterAll
    void stopGateway() {
        gateway.close();
    }

    @BeforeEach
    void connectHost() throws Exception {
        host = LineHost.ofStdioFront(gateway);
    }

    @AfterEach
    void disconnectHost() throws Exception {
        host.close();
    }

    private JsonNode initialize() throws Exception {
        ObjectNode params = Json.object().put("protocolVersion", "2025-06-18");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "test-host").put("version", "1");
        JsonNode reply = host.request("initialize", params);
        host.notify("notifications/initialized", null);
        host.request("tools/list", null);
        return reply;
    }

    private static ObjectNode call(String tool, ObjectNode arguments) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        return params;
    }

    private static String text(JsonNode reply) {
        return reply.path("result").path("content").path(0).path("text").asString();
    }

    private static List<String> toolNames(JsonNode reply) {
        List<String> names = new ArrayList<>();
        reply.path("result").path("tools").forEach(tool -> names.add(tool.path("name").asString()));
        return names;
    }

    @Test
    void aLegacyHostSeesEveryWorkingUpstreamAsOneServer() throws Exception {
        JsonNode init = initialize();
        assertThat(init.path("result").path("protocolVersion").asString()).isEqualTo("2025-06-18");
        assertThat(init.path("result").path("serverInfo").path("name").asString()).isEqualTo("mcpx");

        JsonNode tools = host.request("tools/list", null);
        assertThat(toolNames(tools)).contains("fake__echo", "fake__add", "m__echo").noneMatch(n -> n.startsWith("broken"));
        assertThat(gateway.status()).filteredOn(s -> s.name().equals("broken")).singleElement()
                .satisfies(s -> assertThat(s.state()).isEqualTo("failed"));

        assertThat(text(host.request("tools/call", call("fake__echo", Json.object().put("text", "hi"))))).isEqualTo("Echo: hi");
        assertThat(text(host.request("tools/call", call("m__add", Json.object().put("a", 2).put("b", 3))))).isEqualTo("5");
    }

    @Test
    void progressReachesTheHostWithItsOwnToken() throws Exception {
        initialize();
        ObjectNode params = call("fake__progress", Json.object().put("steps", 2));
        params.putObject("_meta").put("progressToken", "host-token");
        JsonNode reply = host.request("tools/call", params);

        assertThat(text(reply)).isEqualTo("done in 2 steps");
        List<JsonNode> progress = new ArrayList<>();
        for (JsonNode n = host.nextNotification(Duration.ofSeconds(2)); n != null; n = host.nextNotification(Duration.ofMillis(300))) {
            if (n.path("method").asString().equals("notifications/progress")) {
                progress.add(n);
            }
        }
        assertThat(progress).hasSize(2).allSatisfy(n ->
                assertThat(n.path("params").path("progressToken").asString()).isEqualTo("host-token"));
    }

    @Test
    void unknownToolsAndDownUpstreamsAreJsonRpcErrorsNamingThem() throws Exception {
        initialize();
        JsonNode unknown = host.request("tools/call", call("nope__x", Json.object()));
        assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(unknown.path("error").path("message").asString()).contains("nope__x");

        UpstreamStatus broken = gateway.status().stream().filter(s -> s.name().equals("broken")).findFirst().orElseThrow();
        assertThat(broken.state()).isEqualTo("failed");
        assertThat(broken.reason()).isNotBlank();
        JsonNode down = host.request("tools/call", call("broken__anything", Json.object()));
        assertThat(down.path("error").path("code").asInt()).isEqualTo(-32000);
        assertThat(down.path("error").path("message").asString()).contains("upstream \"broken\" is failed")
                .contains("/nonexistent/mcp-server");
    }

    @Test
    void aModernHostGetsModernResultsOnTheSameStdio() throws Exception {
        ObjectNode params = Json.object();
        params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        JsonNode tools = host.request("tools/list", params);
        assertThat(tools.path("result").path("resultType").asString()).isEqualTo("complete");
        assertThat(tools.path("result").path("ttlMs").isNumber()).isTrue();
        assertThat(toolNames(tools)).contains("fake__echo");

        ObjectNode old = Json.object();
        old.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2027-01-01");
        JsonNode refused = host.request("tools/list", old);
        assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32022);
        assertThat(refused.path("error").path("data").path("supported").toString()).contains("2026-07-28");
    }

    @Test
    void aCrashedChildFailsItsCallAtOnceAndIsRestarted() throws Exception {
        initialize();
        long before = System.nanoTime();
        JsonNode died = host.request("tools/call", call("fake__die", Json.object().put("code", 9)));
        assertThat(died.path("error").path("code").asInt()).isEqualTo(-32000);
        assertThat(died.path("error").path("message").asString()).contains("fake").contains("exit");
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(5));

        JsonNode after = host.request("tools/call", call("fake__echo", Json.object().put("text", "again")));
        assertThat(text(after)).as(after.toString()).isEqualTo("Echo: again");
        UpstreamStatus fake = gateway.status().stream().filter(s -> s.name().equals("fake")).findFirst().orElseThrow();
        assertThat(fake.restarts()).isGreaterThanOrEqualTo(1);
        assertThat(fake.state()).isEqualTo("up");
    }

    @Test
    void aHostCancellationCancelsTheUpstreamCall() throws Exception {
        initialize();
        // a loaded machine can make the era probe time out, and its cancellation counts too: count from here
        long cancelledBefore = Long.parseLong(text(host.request("tools/call", call("fake__cancellations", Json.object()))));
        long sentBefore = requestsToFake();
        String id = host.send("tools/call", call("fake__sleep", Json.object().put("ms", 20_000)));
        // the host cancels once its call went upstream, as a user who gave up on it would
        await().atMost(Duration.ofSeconds(20)).until(() -> requestsToFake() > sentBefore);
        host.notify("notifications/cancelled", Json.object().put("requestId", Long.parseLong(id)).put("reason", "user"));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(Long.parseLong(text(host.request("tools/call", call("fake__cancellations", Json.object())))))
                        .isEqualTo(cancelledBefore + 1));
    }

    @Test
    void callsHeldUpstreamBeyondThePlatformThreadsStillLeaveTheHostsNextCallAnswered() throws Exception {
        initialize();
        long cancelledBefore = Long.parseLong(text(host.request("tools/call", call("fake__cancellations", Json.object()))));
        long sentBefore = requestsToFake();
        int held = StdioFront.PLATFORM_THREADS + 4;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < held; i++) {
            ids.add(host.send("tools/call", call("fake__sleep", Json.object().put("ms", 20_000))));
        }
        // every held call reached the upstream, so each had a thread of its own
        await().atMost(Duration.ofSeconds(20)).until(() -> requestsToFake() >= sentBefore + held);
        assertThat(text(host.request("tools/call", call("fake__echo", Json.object().put("text", "through")))))
                .isEqualTo("Echo: through");
        for (String id : ids) {
            host.notify("notifications/cancelled", Json.object().put("requestId", Long.parseLong(id)).put("reason", "user"));
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(Long.parseLong(text(host.request("tools/call", call("fake__cancellations", Json.object())))))
                        .isGreaterThanOrEqualTo(cancelledBefore + held));
    }

    private static ObjectNode modern(ObjectNode params) {
        params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        return params;
    }

    @Test
    void textWithLineBreaksAndNonAsciiCrossesTheFrontAsOneUtf8LinePerMessage() throws Exception {
        // LineHost reads the front's output as UTF-8 lines: a raw line break would split a reply
        // into lines that do not parse, and another charset would garble the text
        String text = "line one\nline two\r\ncafé ✓ 日本語 😀";
        initialize();
        assertThat(text(host.request("tools/call", call("fake__echo", Json.object().put("text", text)))))
                .isEqualTo("Echo: " + text);
        assertThat(text(host.request("tools/call", modern(call("fake__echo", Json.object().put("text", text))))))
                .isEqualTo("Echo: " + text);
    }

    @Test
    void aCancellationThatCrossesItsCallsAnswerIsIgnoredQuietly() throws Exception {
        initialize();
        String cancelledBefore = text(host.request("tools/call", call("fake__cancellations", Json.object())));
        String legacyId = host.send("tools/call", call("fake__echo", Json.object().put("text", "done")));
        assertThat(text(host.reply(legacyId, Duration.ofSeconds(30)))).isEqualTo("Echo: done");
        host.notify("notifications/cancelled", Json.object().put("requestId", Long.parseLong(legacyId)).put("reason", "late"));
        String modernId = host.send("tools/call", modern(call("fake__echo", Json.object().put("text", "done"))));
        assertThat(text(host.reply(modernId, Duration.ofSeconds(30)))).isEqualTo("Echo: done");
        host.notify("notifications/cancelled", Json.object().put("requestId", Long.parseLong(modernId)));
        host.notify("notifications/cancelled", Json.object().put("requestId", 999_999));

        // the front answers nothing to the stale cancellations, passes none upstream, and goes on serving
        assertThat(host.nextNotification(Duration.ofMillis(500))).isNull();
        assertThat(text(host.request("tools/call", call("fake__echo", Json.object().put("text", "still here")))))
                .isEqualTo("Echo: still here");
        assertThat(text(host.request("tools/call", call("fake__cancellations", Json.object())))).isEqualTo(cancelledBefore);
    }

    @Test
    void aModernHostsCancelledCallGetsNoFurtherMessages() throws Exception {
        long cancelledBefore = Long.parseLong(text(host.request("tools/call", modern(call("fake__cancellations", Json.object())))));
        long sentBefore = requestsToFake();
        // the fake answers its sleep after 3 s whether cancelled or not: the front must drop that answer
        String id = host.send("tools/call", modern(call("fake__sleep", Json.object().put("ms", 3_000))));
        await().atMost(Duration.ofSeconds(20)).until(() -> requestsToFake() > sentBefore);
        host.notify("notifications/cancelled", Json.object().put("requestId", Long.parseLong(id)).put("reason", "user"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(Long.parseLong(text(host.request("tools/call", call("fake__cancellations", Json.object())))))
                        .isEqualTo(cancelledBefore + 1));

        assertThatThrownBy(() -> host.reply(id, Duration.ofSeconds(5))).isInstanceOf(java.util.concurrent.TimeoutException.class);
        assertThat(host.nextNotification(Duration.ZERO)).isNull();
    }

    @Test
    void theGatewayAsksAnUpstreamOnlyForWhatItDeclared() throws Exception {
        // the fakes declare tools only: no resources, prompts, completions or logging
        initialize();
        for (String method : List.of("resources/list", "resources/templates/list", "prompts/list")) {
            host.request(method, null);
        }
        host.request("resources/subscribe", Json.object().put("uri", "fake://note"));
        host.request("logging/setLevel", Json.object().put("level", "debug"));
        ObjectNode complete = Json.object();
        complete.putObject("ref").put("type", "ref/prompt").put("name", "fake__greet");
        complete.putObject("argument").put("name", "n").put("value", "a");
        host.request("completion/complete", complete);
        assertThat(host.request("tools/list", null).path("result").path("tools").size()).isPositive();
        for (String stdin : List.of("fake__stdin", "m__stdin")) {
            JsonNode seen = Json.parse(text(host.request("tools/call", call(stdin, Json.object()))));
            assertThat(seen.path("undeclared").asLong()).as(stdin + " " + seen).isZero();
        }
    }

    private long requestsToFake() {
        return gateway.status().stream().filter(s -> s.name().equals("fake")).findFirst().orElseThrow().requests();
    }
}

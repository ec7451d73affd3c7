package dev.mcpx.router;

import static dev.mcpx.router.BridgeHosts.capabilities;
import static dev.mcpx.router.BridgeHosts.elicitationAnswer;
import static dev.mcpx.router.BridgeHosts.legacyCall;
import static dev.mcpx.router.BridgeHosts.methods;
import static dev.mcpx.router.BridgeHosts.resultOf;
import static dev.mcpx.router.BridgeHosts.samplingAnswer;
import static dev.mcpx.router.BridgeHosts.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.conformance.ConformanceUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
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

/**
 * A 2025-11-25 host in front of a 2026-07-28 upstream (the conformance fixture, which the gateway
 * speaks to in the modern era): the upstream's InputRequiredResults become requests to the host,
 * and its log lines reach the host during the call. Real HTTP over loopback throughout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LegacyHostModernUpstreamTest {

    private ConformanceUpstream modern;
    private ConformanceUpstream legacy;
    private Gateway gateway;
    private HttpFront front;

    @BeforeAll
    void start() throws Exception {
        modern = ConformanceUpstream.start();
        legacy = ConformanceUpstream.start(0, ConformanceUpstream.Eras.LEGACY_ONLY);
        gateway = Gateway.start(TestGateways.config(
                TestGateways.withPrefix(UpstreamConfig.of("modern", UpstreamEndpoint.Http.of(modern.url().toString())), "m"),
                TestGateways.withPrefix(UpstreamConfig.of("legacy", UpstreamEndpoint.Http.of(legacy.url().toString())), "l")),
                TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
        assertThat(gateway.pool().require("modern").status().era()).isEqualTo("modern");
        assertThat(gateway.pool().require("legacy").status().era()).isEqualTo("legacy");
    }

    @AfterAll
    void stop() throws Exception {
        front.close();
        gateway.close();
        modern.close();
        legacy.close();
    }

    @Test
    void theUpstreamsSamplingIsAskedOfTheHostAndItsAnswerGoesBackUpstream() throws Exception {
        HttpHost host = BridgeHosts.legacy(front.mcpUri(), capabilities("sampling"));
        List<JsonNode> asked = new ArrayList<>();
        List<JsonNode> seen = legacyCall(host, "m__test_sampling", Json.object().put("prompt", "Capital of France?"),
                request -> {
                    asked.add(request);
                    return resultOf(samplingAnswer("Paris, from the host"));
                });
        assertThat(methods(seen)).containsExactly("sampling/createMessage");
        assertThat(asked.getFirst().path("params").path("messages").path(0).path("content").path("text").asString())
                .isEqualTo("Capital of France?");
        assertThat(text(seen.getLast())).isEqualTo("LLM response: Paris, from the host");
    }

    @Test
    void theUpstreamsElicitationIsAskedOfTheHostAndItsAnswerGoesBackUpstream() throws Exception {
        HttpHost host = BridgeHosts.legacy(front.mcpUri(), capabilities("elicitation"));
        List<JsonNode> seen = legacyCall(host, "m__test_elicitation", Json.object().put("message", "Who are you?"),
                request -> resultOf(elicitationAnswer("username", "octocat")));
        assertThat(methods(seen)).containsExactly("elicitation/create");
        assertThat(text(seen.getLast())).contains("action=accept").contains("octocat");
    }

    @Test
    void aHostsDeclineGoesBackUpstreamAsItsAnswer() throws Exception {
        HttpHost host = BridgeHosts.legacy(front.mcpUri(), capabilities("elicitation"));
        List<JsonNode> seen = legacyCall(host, "m__test_elicitation", Json.object().put("message", "Who are you?"),
                request -> resultOf(Json.object().put("action", "decline")));
        assertThat(text(seen.getLast())).contains("action=decline");
    }

    @Test
    void everyRoundEchoesTheUpstreamsRequestStateSoItsSignatureHolds() throws Exception {
        HttpHost host = BridgeHosts.legacy(front.mcpUri(), capabilities("elicitation"));
        List<JsonNode> seen = legacyCall(host, "m__test_input_required_result_multi_round", Json.object(), request -> {
            boolean colour = request.path("params").path("message").asString().contains("color");
            return resultOf(colour ? elicitationAnswer("color", "green") : elicitationAnswer("name", "Ada"));
        });
        assertThat(methods(seen)).containsExactly("elicitation/create", "elicitation/create");
        assertThat(text(seen.getLast())).isEqualTo("Ada's favorite color is green");
    }

    @Test
    void aHostWithoutTheCapabilityIsNotAskedAndGetsTheUpstreamsCleanError() throws Exception {
        HttpHost host = BridgeHosts.legacy(front.mcpUri(), capabilities("elicitation"));
        List<JsonNode> seen = legacyCall(host, "m__test_sampling", Json.object().put("prompt", "hi"), request -> {
            throw new AssertionError("the host must not be asked: " + request);
        });
        assertThat(methods(seen)).isEmpty();
        assertThat(seen.getLast().path("error").path("code").asInt()).isEqualTo(-32021);
    }

    @Test
    void aHostsErrorEndsTheCallWithThatError() throws Exception {
        HttpHost host = BridgeHosts.legacy(front.mcpUri(), capabilities("sampling"));
        List<JsonNode> seen = legacyCall(host, "m__test_sampling", Json.object().put("prompt", "hi"), request -> {
            ObjectNode reply = Json.object();
            reply.putObject("error").put("code", -1).put("message", "User rejected sampling request");
            return reply;
        });
        assertThat(seen.getLast().path("error").path("code").asInt()).isEqualTo(-1);
        assertThat(seen.getLast().path("error").path("message").asString()).isEqualTo("User rejected sampling request");
    }

    @Test
    void aStdioHostIsAskedOnStdoutForAModernUpstream() throws Exception {
        try (LineHost host = LineHost.ofStdioFront(gateway)) {
            ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
            init.set("capabilities", capabilities("elicitation"));
            init.putObject("clientInfo").put("name", "stdio-host").put("version", "1");
            host.request("initialize", init);
            host.notify("notifications/initialized", null);
            host.request("logging/setLevel", Json.object().put("level", "debug"));

            String logged = host.send("tools/call", Json.object().put("name", "m__test_tool_with_logging"));
            JsonNode loggedReply = host.reply(logged, Duration.ofSeconds(30));
            assertThat(text(loggedReply)).isEqualTo("Tool with logging executed successfully");
            List<JsonNode> lines = new ArrayList<>();
            for (JsonNode message = host.nextNotification(Duration.ofSeconds(2)); message != null;
                 message = host.nextNotification(Duration.ofMillis(200))) {
                lines.add(message);
            }
            assertThat(lines).filteredOn(m -> "notifications/message".equals(m.path("method").asString())).hasSize(3);

            ObjectNode params = Json.object().put("name", "m__test_elicitation");
            params.putObject("arguments").put("message", "Who are you?");
            String id = host.send("tools/call", params);
            JsonNode asked = null;
            for (int i = 0; i < 60 && asked == null; i++) {
                JsonNode message = host.nextNotification(Duration.ofMillis(500));
                if (message != null && message.has("id")) {
                    asked = message;
                }
            }
            assertThat(asked).isNotNull();
            assertThat(asked.path("method").asString()).isEqualTo("elicitation/create");
            ObjectNode reply = resultOf(elicitationAnswer("username", "stdio-cat")).put("jsonrpc", "2.0");
            reply.set("id", asked.get("id"));
            host.writeRaw(Json.write(reply));
            assertThat(text(host.reply(id, Duration.ofSeconds(30)))).contains("stdio-cat");
        }
    }

    @Test
    void logLinesReachTheHostOnTheCallsStreamAtTheLevelItSet() throws Exception {
        HttpHost host = BridgeHosts.legacy(front.mcpUri(), capabilities());
        assertThat(host.request("logging/setLevel", Json.object().put("level", "debug")).reply().has("result")).isTrue();
        List<JsonNode> seen = legacyCall(host, "m__test_tool_with_logging", Json.object(), request -> {
            throw new AssertionError("not asked");
        });
        assertThat(methods(seen)).containsExactly("notifications/message", "notifications/message", "notifications/message");
        assertThat(seen.get(0).path("params").path("data").asString()).isEqualTo("Tool execution started");
        assertThat(text(seen.getLast())).isEqualTo("Tool with logging executed successfully");
    }

    @Test
    void aLegacyUpstreamsLogLinesBelowTheHostsLevelAreHeldBack() throws Exception {
        HttpHost quiet = BridgeHosts.legacy(front.mcpUri(), capabilities());
        quiet.request("logging/setLevel", Json.object().put("level", "error"));
        List<JsonNode> seen = legacyCall(quiet, "l__test_tool_with_logging", Json.object(), request -> {
            throw new AssertionError("not asked");
        });
        assertThat(methods(seen)).isEmpty();
        assertThat(text(seen.getLast())).isEqualTo("Tool with logging executed successfully");

        HttpHost chatty = BridgeHosts.legacy(front.mcpUri(), capabilities());
        chatty.request("logging/setLevel", Json.object().put("level", "info"));
        List<JsonNode> heard = legacyCall(chatty, "l__test_tool_with_logging", Json.object(), request -> {
            throw new AssertionError("not asked");
        });
        assertThat(methods(heard)).containsExactly("notifications/message", "notifications/message", "notifications/message");
    }

    @Test
    void anUnknownLogLevelIsRefused() throws Exception {
        HttpHost host = BridgeHosts.legacy(front.mcpUri(), capabilities());
        assertThat(host.request("logging/setLevel", Json.object().put("level", "loud")).errorCode()).isEqualTo(-32602);
    }
}

package dev.mcpx.router;

import static dev.mcpx.router.BridgeHosts.capabilities;
import static dev.mcpx.router.BridgeHosts.elicitationAnswer;
import static dev.mcpx.router.BridgeHosts.methods;
import static dev.mcpx.router.BridgeHosts.modernCall;
import static dev.mcpx.router.BridgeHosts.retry;
import static dev.mcpx.router.BridgeHosts.samplingAnswer;
import static dev.mcpx.router.BridgeHosts.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.conformance.ConformanceUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A 2026-07-28 host in front of a 2025-11-25 upstream (the conformance fixture, legacy-only):
 * the upstream's server->client requests come to the host as InputRequiredResults while the
 * gateway holds the upstream call, and the host's retry delivers its answers. Held calls expire
 * after {@link #EXPIRY} here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModernHostLegacyUpstreamTest {

    private static final Duration EXPIRY = Duration.ofSeconds(3);

    private ConformanceUpstream legacy;
    private ConformanceUpstream modern;
    private Gateway gateway;
    private HttpFront front;
    private HttpHost host;

    @BeforeAll
    void start() throws Exception {
        legacy = ConformanceUpstream.start(0, ConformanceUpstream.Eras.LEGACY_ONLY);
        modern = ConformanceUpstream.start();
        gateway = Gateway.start(TestGateways.config(
                TestGateways.withPrefix(UpstreamConfig.of("legacy", UpstreamEndpoint.Http.of(legacy.url().toString())), "l"),
                TestGateways.withPrefix(UpstreamConfig.of("modern", UpstreamEndpoint.Http.of(modern.url().toString())), "m")),
                TestGateways.settings().withHeldCalls(new HeldCalls.Limits(EXPIRY, 100)), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
        assertThat(gateway.pool().require("legacy").status().era()).isEqualTo("legacy");
        assertThat(gateway.pool().require("modern").status().era()).isEqualTo("modern");
        host = HttpHost.modern(front.mcpUri());
    }

    @AfterAll
    void stop() throws Exception {
        front.close();
        gateway.close();
        legacy.close();
        modern.close();
    }

    private Exchange send(ObjectNode body) throws Exception {
        return host.send(body, "tools/call");
    }

    private static String onlyKey(JsonNode inputRequired) {
        return inputRequired.path("inputRequests").propertyNames().iterator().next();
    }

    @Test
    void theUpstreamsSamplingBecomesAnInputRequiredResultAndTheRetryCompletesTheHeldCall() throws Exception {
        ObjectNode first = modernCall(1, "l__test_sampling", capabilities("sampling"), null);
        ((ObjectNode) first.path("params").path("arguments")).put("prompt", "Capital of France?");
        Exchange firstRound = send(first);
        // the upstream's request never reaches the host as a request, only inside the result
        assertThat(methods(firstRound.messages())).isEmpty();
        JsonNode asked = firstRound.reply().path("result");
        assertThat(asked.path("resultType").asString()).isEqualTo("input_required");
        String key = onlyKey(asked);
        assertThat(asked.path("inputRequests").path(key).path("method").asString()).isEqualTo("sampling/createMessage");
        assertThat(asked.path("inputRequests").path(key).path("params").path("messages").path(0).path("content")
                .path("text").asString()).isEqualTo("Capital of France?");
        assertThat(asked.path("requestState").asString()).hasSizeGreaterThan(40);
        assertThat(gateway.hostRequests().heldCallCount()).isEqualTo(1);

        ObjectNode answers = Json.object();
        answers.set(key, samplingAnswer("Paris, from the modern host"));
        Exchange done = send(retry(first, 2, answers, asked.get("requestState")));
        assertThat(done.reply().path("result").path("resultType").asString()).isEqualTo("complete");
        assertThat(done.text()).isEqualTo("LLM response: Paris, from the modern host");
        assertThat(gateway.hostRequests().heldCallCount()).isZero();
    }

    @Test
    void everyElicitationRoundGetsItsOwnStateAndTheUpstreamSeesEveryAnswer() throws Exception {
        ObjectNode first = modernCall(1, "l__test_input_required_result_multi_round", capabilities("elicitation"), null);
        JsonNode step1 = send(first).reply().path("result");
        assertThat(step1.path("resultType").asString()).isEqualTo("input_required");
        ObjectNode answers = Json.object();
        answers.set(onlyKey(step1), elicitationAnswer("name", "Ada"));
        JsonNode step2 = send(retry(first, 2, answers, step1.get("requestState"))).reply().path("result");
        assertThat(step2.path("resultType").asString()).isEqualTo("input_required");
        assertThat(step2.path("requestState")).isNotEqualTo(step1.path("requestState"));
        assertThat(step2.path("inputRequests").path(onlyKey(step2)).path("params").path("message").asString())
                .contains("color");
        ObjectNode colour = Json.object();
        colour.set(onlyKey(step2), elicitationAnswer("color", "green"));
        Exchange done = send(retry(first, 3, colour, step2.get("requestState")));
        assertThat(done.text()).isEqualTo("Ada's favorite color is green");

        // the state was used once: the same retry again is refused, not replayed
        Exchange replayed = send(retry(first, 4, colour, step2.get("requestState")));
        assertThat(replayed.errorCode()).isEqualTo(-32602);
    }

    @Test
    void aHostWithoutTheCapabilityIsNeverAskedAndGetsMissingCapability() throws Exception {
        Exchange call = send(modernCall(1, "l__test_sampling", capabilities("elicitation"), null));
        assertThat(call.status()).isEqualTo(400);
        assertThat(call.errorCode()).isEqualTo(-32021);
        assertThat(call.reply().path("error").path("data").path("requiredCapabilities").has("sampling")).isTrue();
        assertThat(gateway.hostRequests().heldCallCount()).isZero();
        await().atMost(Duration.ofSeconds(60)).until(() -> gateway.pool().require("legacy").pendingRequests() == 0);
    }

    @Test
    void aBogusOrTamperedRequestStateIsAClearErrorAndHoldsNothing() throws Exception {
        ObjectNode first = modernCall(1, "l__test_elicitation", capabilities("elicitation"), null);
        Exchange bogus = send(retry(first, 2, Json.object(), Json.parse("\"mcpx-held.not-a-token\"")));
        assertThat(bogus.errorCode()).isEqualTo(-32602);
        assertThat(bogus.reply().path("error").path("message").asString()).contains("requestState");

        JsonNode asked = send(first).reply().path("result");
        String state = asked.path("requestState").asString();
        String tampered = state.substring(0, state.length() - 1) + (state.endsWith("A") ? "B" : "A");
        Exchange refused = send(retry(first, 3, Json.object(), Json.parse("\"" + tampered + "\"")));
        assertThat(refused.errorCode()).isEqualTo(-32602);
        assertThat(refused.reply().path("error").path("message").asString()).doesNotContain("another mcpx process");
        // the same shape with another process's name in it: a replica that does not hold the call
        String[] parts = state.split("\\.", -1);
        String foreign = parts[0] + "." + (parts[1].startsWith("A") ? "B" : "A") + parts[1].substring(1) + "." + parts[2];
        Exchange elsewhere = send(retry(first, 5, Json.object(), Json.parse("\"" + foreign + "\"")));
        assertThat(elsewhere.errorCode()).isEqualTo(-32602);
        assertThat(elsewhere.reply().path("error").path("message").asString()).contains("issued by another mcpx process");
        // the genuine state still works after the tampered one was refused
        ObjectNode answers = Json.object();
        answers.set(onlyKey(asked), elicitationAnswer("username", "octocat"));
        assertThat(send(retry(first, 4, answers, asked.get("requestState"))).text()).contains("octocat");
        assertThat(gateway.hostRequests().heldCallCount()).isZero();
    }

    @Test
    void aHeldCallWhoseHostNeverRetriesExpiresAndLeavesNothingPending() throws Exception {
        ObjectNode first = modernCall(1, "l__test_elicitation", capabilities("elicitation"), null);
        JsonNode asked = send(first).reply().path("result");
        assertThat(asked.path("resultType").asString()).isEqualTo("input_required");
        assertThat(gateway.hostRequests().heldCallCount()).isEqualTo(1);

        await().atMost(Duration.ofSeconds(60)).until(() -> gateway.hostRequests().heldCallCount() == 0);
        // the upstream's elicitation got an error, so its call ended and nothing waits on it
        await().atMost(Duration.ofSeconds(60)).until(() -> gateway.pool().require("legacy").pendingRequests() == 0);
        ObjectNode answers = Json.object();
        answers.set(onlyKey(asked), elicitationAnswer("username", "too-late"));
        Exchange late = send(retry(first, 2, answers, asked.get("requestState")));
        assertThat(late.errorCode()).isEqualTo(-32602);
    }

    @Test
    void aModernUpstreamsRequestStatePassesThroughUnchanged() throws Exception {
        ObjectNode first = modernCall(1, "m__test_input_required_result_request_state", capabilities("elicitation"), null);
        JsonNode asked = send(first).reply().path("result");
        assertThat(asked.path("resultType").asString()).isEqualTo("input_required");
        assertThat(asked.path("requestState").asString()).doesNotStartWith("mcpx-held.");
        assertThat(gateway.hostRequests().heldCallCount()).isZero();
        ObjectNode answers = Json.object();
        ObjectNode confirmed = Json.object().put("action", "accept");
        confirmed.putObject("content").put("ok", true);
        answers.set(onlyKey(asked), confirmed);
        Exchange done = send(retry(first, 2, answers, asked.get("requestState")));
        assertThat(done.text()).startsWith("state-ok");
    }

    @Test
    void aModernStdioHostGetsTheAskAsAnInputRequiredResultNotARequestOnStdout() throws Exception {
        try (LineHost stdioHost = LineHost.ofStdioFront(gateway)) {
            ObjectNode first = (ObjectNode) modernCall(0, "l__test_elicitation", capabilities("elicitation"), "info")
                    .get("params");
            String id = stdioHost.send("tools/call", first);
            JsonNode asked = stdioHost.reply(id, Duration.ofSeconds(30)).path("result");
            assertThat(asked.path("resultType").asString()).isEqualTo("input_required");
            assertThat(stdioHost.nextNotification(Duration.ofMillis(300))).isNull();
            ObjectNode answers = Json.object();
            answers.set(onlyKey(asked), elicitationAnswer("username", "stdio-octocat"));
            ObjectNode again = first.deepCopy();
            again.set("inputResponses", answers);
            again.set("requestState", asked.get("requestState"));
            JsonNode done = stdioHost.reply(stdioHost.send("tools/call", again), Duration.ofSeconds(30));
            assertThat(text(done)).contains("stdio-octocat");
        }
    }

    @Test
    void logLinesReachAModernHostOnItsResponseStreamOnlyWhenItAskedForThem() throws Exception {
        for (String tool : new String[] {"l__test_tool_with_logging", "m__test_tool_with_logging"}) {
            Exchange heard = send(modernCall(1, tool, capabilities(), "info"));
            assertThat(methods(heard.messages())).as(tool)
                    .containsExactly("notifications/message", "notifications/message", "notifications/message");
            assertThat(heard.text()).isEqualTo("Tool with logging executed successfully");

            Exchange silent = send(modernCall(2, tool, capabilities(), null));
            assertThat(methods(silent.messages())).as(tool).isEmpty();
            assertThat(silent.text()).isEqualTo("Tool with logging executed successfully");
        }
    }
}

package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream.ResponseMode;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream.SessionLossAnswer;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Repeated faults behind the whole gateway with its production client settings: a legacy
 * upstream that rejects every session right after handing it out (a load balancer without
 * session affinity), whose catalogue refresh after the re-initialize no longer re-initializes it
 * in a loop, and a modern upstream whose every response stream breaks. {@code /status} says
 * {@code degraded} and why, hosts are answered at once, and it heals.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DegradedUpstreamTest {

    private static final Duration FAULT = Duration.ofSeconds(10);

    @ParameterizedTest(name = "{0} over {1}")
    @CsvSource({"NOT_FOUND, JSON", "BAD_REQUEST, SSE"})
    void anUpstreamThatRejectsEverySessionIsDegradedNotStormedAndHeals(SessionLossAnswer answer, ResponseMode mode)
            throws Exception {
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started().sessionLossAnswer(answer).responseMode(mode);
             Gateway gateway = Gateway.start(TestGateways.config(UpstreamConfig.of("remote",
                     UpstreamEndpoint.Http.of(legacy.url().toString()))), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.modern(front.mcpUri());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(host.request("tools/list", null).body()).contains("remote__echo"));
            assertThat(host.call("remote__echo", Json.object().put("text", "before")).text()).isEqualTo("before");
            int before = legacy.initializeCount();

            legacy.rejectEverySession(true);
            Exchange first = host.call("remote__echo", Json.object().put("text", "during"));
            assertThat(first.reply().path("error").path("message").asString()).contains("session affinity");
            JsonNode status = remote(status(host, front));
            assertThat(status.path("state").asString()).isEqualTo("degraded");
            assertThat(status.path("reason").asString()).contains("rejects its sessions right after initialize");

            int callsBefore = legacy.requestIdsSeen("tools/call").size();
            await().during(FAULT).atMost(FAULT.plusSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
                long start = System.nanoTime();
                Exchange refused = host.call("remote__echo", Json.object().put("text", "refused"));
                boolean atOnce = Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(5)) < 0;
                return atOnce && refused.reply().has("error");
            });
            int initializes = legacy.initializeCount() - before;
            // the first call's one re-initialize, then one probe per backoff step (1, 2, 4 s ...): not thousands
            assertThat(initializes).as("initializes in the first %s s of the fault", FAULT.toSeconds()).isBetween(2, 6);
            assertThat(legacy.requestIdsSeen("tools/call")).as("host calls refused at once never reached the upstream")
                    .hasSize(callsBefore);

            legacy.rejectEverySession(false);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(remote(status(host, front)).path("state").asString()).isEqualTo("up"));
            assertThat(host.call("remote__echo", Json.object().put("text", "after")).text()).isEqualTo("after");
        }
    }

    @Test
    void aModernUpstreamWhoseEveryStreamBreaksIsDegradedNotReissuedInALoopAndHeals() throws Exception {
        try (ModernHttpUpstream modern = ModernHttpUpstream.start();
             Gateway gateway = Gateway.start(TestGateways.config(UpstreamConfig.of("remote",
                     UpstreamEndpoint.Http.of(modern.url().toString()))), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.modern(front.mcpUri());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(host.request("tools/list", null).body()).contains("remote__read_only_tool"));
            modern.breakStream("read_only_tool", Integer.MAX_VALUE);

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() ->
                    host.call("remote__read_only_tool", Json.object()).reply().path("error").path("message").asString()
                            .contains("every response stream"));
            JsonNode status = remote(status(host, front));
            assertThat(status.path("state").asString()).isEqualTo("degraded");
            assertThat(status.path("reason").asString()).contains("every response stream of the upstream breaks");
            int executions = modern.executions("read_only_tool");

            await().during(FAULT).atMost(FAULT.plusSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() ->
                    host.call("remote__read_only_tool", Json.object()).reply().has("error"));
            // one probe call per backoff step (1, 2, 4 s ...), its re-issue refused: 50 host calls, a handful ran
            assertThat(modern.executions("read_only_tool") - executions).as("executions while the fault lasted")
                    .isBetween(1, 5);

            modern.breakStream("read_only_tool", 0);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() ->
                    host.call("remote__read_only_tool", Json.object()).text().startsWith("read_only_tool execution")
                            && remote(status(host, front)).path("state").asString().equals("up"));
        }
    }

    private static JsonNode remote(JsonNode status) {
        for (JsonNode entry : status.path("upstreams")) {
            if (entry.path("name").asString().equals("remote")) {
                return entry;
            }
        }
        throw new AssertionError("no upstream remote in " + status);
    }

    private static JsonNode status(HttpHost host, HttpFront front) throws Exception {
        URI statusUri = front.mcpUri().resolve("/status");
        return Json.parse(host.raw(HttpRequest.newBuilder(statusUri).GET().build()).body());
    }
}

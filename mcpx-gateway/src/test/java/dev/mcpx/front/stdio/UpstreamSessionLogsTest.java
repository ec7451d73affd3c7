package dev.mcpx.front.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.Profile;
import dev.mcpx.catalogue.Profiles;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.Limits;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.conformance.ConformanceUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream's own log lines, sent outside any call (a legacy server may log whenever it likes),
 * reach a legacy host as they would straight from the server: at or above the level the host set,
 * only from upstreams its profile takes, and a line sent during a call reaches that call's host
 * once, not a second time as the session's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UpstreamSessionLogsTest {

    private static final String MESSAGE = "notifications/message";

    private ConformanceUpstream logging;
    private Gateway gateway;
    private final List<LineHost> hosts = new ArrayList<>();

    @BeforeAll
    void startGateway() throws Exception {
        logging = ConformanceUpstream.start(0, ConformanceUpstream.Eras.LEGACY_ONLY);
        gateway = Gateway.start(new GatewayConfig(Optional.empty(), List.of(TestGateways.fake("one"), TestGateways.fake("two"),
                TestGateways.withPrefix(UpstreamConfig.of("logging", UpstreamEndpoint.Http.of(logging.url().toString())), "c")),
                List.of(), Optional.empty(), Limits.DEFAULTS, Optional.empty(), new Profiles(Profile.WHOLE, Map.of(
                "review", new Profile("review", List.of("one"), CatalogueFilter.NONE, Profile.Search.OFF)))),
                TestGateways.settings(), Map.of());
        gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
        await().atMost(Duration.ofSeconds(60)).until(() -> gateway.catalogue().tool("one__echo").isPresent()
                && gateway.catalogue().tool("two__echo").isPresent()
                && gateway.catalogue().tool("c__test_tool_with_logging").isPresent());
    }

    @AfterAll
    void stopGateway() throws Exception {
        gateway.close();
        logging.close();
    }

    @AfterEach
    void disconnectHosts() throws Exception {
        for (LineHost host : hosts) {
            host.close();
        }
        hosts.clear();
    }

    private LineHost host(String profile) throws Exception {
        LineHost host = LineHost.ofStdioFront(gateway, profile);
        hosts.add(host);
        ObjectNode params = Json.object().put("protocolVersion", "2025-11-25");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "log-reader").put("version", "1");
        host.request("initialize", params);
        host.notify("notifications/initialized", null);
        return host;
    }

    private static ObjectNode echo(String text, String logAfter) {
        ObjectNode call = Json.object().put("name", text.substring(0, text.indexOf('-')) + "__echo");
        call.putObject("arguments").put("text", text).put("logAfter", logAfter);
        return call;
    }

    /** The next log line the host hears (other notifications skipped), or null within {@code max}. */
    private static JsonNode nextLogLine(LineHost host, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode note = host.nextNotification(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (note != null && MESSAGE.equals(note.path("method").asString())) {
                return note.path("params");
            }
        }
        return null;
    }

    @Test
    void aLineOutsideACallReachesTheHostAtOrAboveItsLevelInOrder() throws Exception {
        LineHost host = host(null);
        host.request("logging/setLevel", Json.object().put("level", "warning"));

        assertThat(host.request("tools/call", echo("two-quiet", "info")).toString()).contains("Echo: two-quiet");
        assertThat(host.request("tools/call", echo("two-loud", "error")).toString()).contains("Echo: two-loud");

        JsonNode heard = nextLogLine(host, Duration.ofSeconds(30));
        assertThat(heard).as("the upstream's error line, sent after its answer").isNotNull();
        // lines reach a host in the order the upstream sent them: the info line would have come first
        assertThat(heard.path("data").asString()).isEqualTo("after two-loud");
        assertThat(heard.path("level").asString()).isEqualTo("error");
        assertThat(heard.path("logger").asString()).isEqualTo("fake");
    }

    @Test
    void aHostHearsOnlyTheUpstreamsItsProfileTakes() throws Exception {
        LineHost whole = host(null);
        LineHost review = host("review");

        assertThat(whole.request("tools/call", echo("two-elsewhere", "notice")).toString()).contains("Echo: two-elsewhere");
        JsonNode wholeHeard = nextLogLine(whole, Duration.ofSeconds(30));
        assertThat(wholeHeard).isNotNull();
        assertThat(wholeHeard.path("data").asString()).isEqualTo("after two-elsewhere");

        assertThat(review.request("tools/call", echo("one-own", "debug")).toString()).contains("Echo: one-own");
        JsonNode reviewHeard = nextLogLine(review, Duration.ofSeconds(30));
        assertThat(reviewHeard).as("a host that set no level hears every line of its profile's upstreams").isNotNull();
        assertThat(reviewHeard.path("data").asString()).isEqualTo("after one-own");
        assertThat(nextLogLine(review, Duration.ofMillis(500))).as("nothing of upstream two, which review does not take")
                .isNull();
    }

    @Test
    void aLineSentDuringACallReachesItsHostOnce() throws Exception {
        LineHost host = host(null);
        host.request("logging/setLevel", Json.object().put("level", "debug"));

        JsonNode reply = host.request("tools/call", Json.object().put("name", "c__test_tool_with_logging")
                .set("arguments", Json.object()));
        assertThat(reply.has("result")).as("answered: %s", reply).isTrue();

        List<String> lines = new ArrayList<>();
        for (JsonNode line = nextLogLine(host, Duration.ofSeconds(2)); line != null; line = nextLogLine(host, Duration.ofSeconds(1))) {
            lines.add(line.path("data").toString());
        }
        assertThat(lines).as("the three lines of the call, each once").hasSize(3).doesNotHaveDuplicates();
    }
}

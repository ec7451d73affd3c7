package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.chaos.SilentCloses.When;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/** A line logged about a host call, deep in the client, names the host's request id and trace id. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CallLogContextTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void theClientsLineAboutAReissueCarriesTheRequestAndTraceIds() throws Exception {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        root.addAppender(lines);
        // a one-shot CLI command run earlier in this JVM leaves the root at WARN: the line is INFO
        Level level = root.getLevel();
        root.setLevel(Level.INFO);
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             Gateway gateway = Gateway.start(TestGateways.config(UpstreamConfig.of("remote",
                     UpstreamEndpoint.Http.of(legacy.url().toString()))), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.legacy(front.mcpUri());
            host.initialize();
            assertThat(host.request("tools/list", null).body()).contains("remote__echo");
            legacy.closeWithoutAnswer("echo", 1, When.BEFORE_RUNNING);
            ObjectNode params = Json.object().put("name", "remote__echo");
            params.putObject("arguments").put("text", "traced");
            params.putObject("_meta").put("traceparent", "00-" + TRACE + "-00f067aa0ba902b7-01");
            ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 77).put("method", "tools/call");
            body.set("params", params);
            assertThat(host.send(body, "tools/call").text()).isEqualTo("traced");
        } finally {
            root.detachAppender(lines);
            root.setLevel(level);
        }
        ILoggingEvent reissue = lines.list.stream()
                .filter(event -> event.getFormattedMessage().contains("sending it once more")).findFirst().orElseThrow();
        assertThat(reissue.getMDCPropertyMap()).containsEntry("requestId", "77").containsEntry("traceId", TRACE)
                .containsEntry("call", "request 77 trace " + TRACE);
        assertThat(lines.list.stream().filter(event -> event.getFormattedMessage().contains("listening"))
                .allMatch(event -> !event.getMDCPropertyMap().containsKey("requestId")))
                .as("lines outside a call name none").isTrue();
    }

    @Test
    void onlyAValidTraceparentGivesATraceId() {
        assertThat(CallLogContext.traceId("00-" + TRACE + "-00f067aa0ba902b7-01")).isEqualTo(TRACE);
        assertThat(CallLogContext.traceId("00-" + "0".repeat(32) + "-00f067aa0ba902b7-01")).isNull();
        assertThat(CallLogContext.traceId("garbage")).isNull();
        assertThat(CallLogContext.traceId(null)).isNull();
    }
}

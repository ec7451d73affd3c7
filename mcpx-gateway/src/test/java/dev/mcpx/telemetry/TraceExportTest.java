package dev.mcpx.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.Limits;
import dev.mcpx.config.TelemetryOptions;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.ServeProcess;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.telemetry.OtlpReceiver.ReceivedSpan;
import dev.mcpx.testkit.chaos.SilentCloses;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import io.opentelemetry.proto.trace.v1.Status.StatusCode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mcpx.telemetry}: a host request and the call mcpx makes upstream for it arrive at a real
 * OTLP/HTTP receiver as a SERVER span and its CLIENT child, in the host's trace, and the upstream
 * is sent the CLIENT span's context in its request's {@code _meta}, over either front; a
 * collector that is down or refuses costs the calls nothing, and what it did not take is counted.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TraceExportTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String HOST_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE + "-" + HOST_SPAN + "-01";
    private static final Duration EXPORTED = Duration.ofSeconds(60);

    private static GatewayConfig config(LegacyHttpUpstream legacy, URI collector, double sampling) {
        TelemetryOptions.Traces traces = new TelemetryOptions.Traces(collector.resolve("/v1/traces"),
                Map.of("Authorization", "Bearer collector-key"), sampling);
        return new GatewayConfig(Optional.empty(), List.of(UpstreamConfig.of("remote",
                UpstreamEndpoint.Http.of(legacy.url().toString()))), List.of(), Optional.empty(), Limits.DEFAULTS,
                Optional.empty(), new TelemetryOptions(true, Optional.empty(), false, Optional.of(traces)));
    }

    private static ObjectNode echo(String text, String traceparent) {
        ObjectNode params = Json.object().put("name", "remote__echo");
        params.putObject("arguments").put("text", text);
        if (traceparent != null) {
            params.putObject("_meta").put("traceparent", traceparent).put("tracestate", "vendor=1")
                    .put("baggage", "tenant=acme");
        }
        return params;
    }

    /** The {@code _meta} of each {@code tools/call} the upstream received. */
    private static List<JsonNode> upstreamCallMeta(LegacyHttpUpstream legacy) {
        return legacy.requests().stream().filter(RecordedRequest::isRpcRequest)
                .filter(request -> "tools/call".equals(request.rpcMethod()))
                .map(request -> Json.parse(request.body()).path("params").path("_meta")).toList();
    }

    private static ReceivedSpan awaitSpan(OtlpReceiver collector, SpanKind kind, String traceId) {
        return await().atMost(EXPORTED).until(() -> collector.span(span -> span.kind() == kind
                && span.traceId().equals(traceId)), Optional::isPresent).orElseThrow();
    }

    @Test
    void aLegacyHttpHostsCallIsOneTraceFromTheHostThroughMcpxToTheUpstream() throws Exception {
        try (OtlpReceiver collector = OtlpReceiver.start();
             LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             Gateway gateway = Gateway.start(config(legacy, collector.endpoint(), 1.0), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.legacy(front.mcpUri());
            host.initialize();
            assertThat(host.request("tools/call", echo("hi", TRACEPARENT)).text()).isEqualTo("hi");

            ReceivedSpan server = awaitSpan(collector, SpanKind.SPAN_KIND_SERVER, TRACE);
            assertThat(server.parentSpanId()).as("the host's span is the parent").isEqualTo(HOST_SPAN);
            assertThat(server.name()).isEqualTo("tools/call remote__echo");
            assertThat(server.attributes()).containsEntry("mcp.method.name", "tools/call")
                    .containsEntry("gen_ai.tool.name", "remote__echo").containsEntry("gen_ai.operation.name", "execute_tool")
                    .containsEntry("network.transport", "tcp").containsKeys("jsonrpc.request.id", "mcp.session.id")
                    .doesNotContainKey("error.type");
            assertThat(server.resource()).containsEntry("service.name", "mcpx");
            ReceivedSpan client = awaitSpan(collector, SpanKind.SPAN_KIND_CLIENT, TRACE);
            assertThat(client.parentSpanId()).as("the upstream call is the host request's child").isEqualTo(server.spanId());
            assertThat(client.name()).isEqualTo("tools/call echo");
            assertThat(client.attributes()).containsEntry("gen_ai.tool.name", "echo").containsEntry("mcpx.upstream", "remote")
                    .containsEntry("server.address", "127.0.0.1")
                    .containsEntry("server.port", Integer.toString(legacy.url().getPort()))
                    .containsEntry("network.transport", "tcp").containsEntry("mcp.protocol.version", "2025-11-25");

            JsonNode sent = upstreamCallMeta(legacy).getFirst();
            assertThat(sent.path("traceparent").asString()).as("the upstream joins the trace as the CLIENT span's child")
                    .isEqualTo("00-" + TRACE + "-" + client.spanId() + "-01");
            assertThat(sent.path("tracestate").asString()).isEqualTo("vendor=1");
            assertThat(sent.path("baggage").asString()).isEqualTo("tenant=acme");
            assertThat(collector.requestHeaders().getFirst()).containsEntry("Authorization", List.of("Bearer collector-key"));

            // a lost response is sent again: the recovery is an event on the upstream call's span
            String second = "1234567890abcdef1234567890abcdef";
            legacy.closeWithoutAnswer("echo", 1, SilentCloses.When.BEFORE_RUNNING);
            assertThat(host.request("tools/call", echo("again", "00-" + second + "-" + HOST_SPAN + "-01")).text())
                    .isEqualTo("again");
            assertThat(awaitSpan(collector, SpanKind.SPAN_KIND_CLIENT, second).events()).containsExactly("mcpx.reissue");

            // a failed call: error.type on both spans, and their status is an error
            assertThat(host.request("tools/call", Json.object().put("name", "remote__nope")).reply().has("error")).isTrue();
            ReceivedSpan unknown = await().atMost(EXPORTED).until(() -> collector.span(span ->
                    span.name().equals("tools/call remote__nope")), Optional::isPresent).orElseThrow();
            assertThat(unknown.attributes()).containsEntry("error.type", "-32602")
                    .containsEntry("rpc.response.status_code", "-32602");
            assertThat(unknown.status().getCode()).isEqualTo(StatusCode.STATUS_CODE_ERROR);
        }
    }

    @Test
    void aCallWithoutTraceContextIsLoggedUnderTheTraceMcpxStartedForIt() throws Exception {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        root.addAppender(lines);
        // a one-shot CLI command run earlier in this JVM leaves the root at WARN: the line is INFO
        Level level = root.getLevel();
        root.setLevel(Level.INFO);
        try (OtlpReceiver collector = OtlpReceiver.start();
             LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             Gateway gateway = Gateway.start(config(legacy, collector.endpoint(), 1.0), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.legacy(front.mcpUri());
            host.initialize();
            legacy.closeWithoutAnswer("echo", 1, SilentCloses.When.BEFORE_RUNNING);
            assertThat(host.request("tools/call", echo("untraced", null)).text()).isEqualTo("untraced");

            ReceivedSpan server = await().atMost(EXPORTED).until(() -> collector.span(span ->
                    span.kind() == SpanKind.SPAN_KIND_SERVER && span.name().equals("tools/call remote__echo")),
                    Optional::isPresent).orElseThrow();
            assertThat(server.parentSpanId()).as("mcpx started the trace").isEmpty();
            ILoggingEvent reissue = List.copyOf(lines.list).stream()
                    .filter(event -> event.getFormattedMessage().contains("sending it once more")).findFirst().orElseThrow();
            assertThat(reissue.getMDCPropertyMap()).containsEntry("traceId", server.traceId());
        } finally {
            root.detachAppender(lines);
            root.setLevel(level);
        }
    }

    @Test
    void aModernHostsTraceparentHeaderCountsWhenItsMetaHasNone() throws Exception {
        String trace = "0af7651916cd43dd8448eb211c80319c";
        try (OtlpReceiver collector = OtlpReceiver.start();
             LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             Gateway gateway = Gateway.start(config(legacy, collector.endpoint(), 1.0), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.modern(front.mcpUri()).headers(Map.of("traceparent", "00-" + trace + "-b7ad6b7169203331-01"));
            assertThat(host.request("tools/call", echo("hi", null)).text()).isEqualTo("hi");

            ReceivedSpan server = awaitSpan(collector, SpanKind.SPAN_KIND_SERVER, trace);
            assertThat(server.parentSpanId()).isEqualTo("b7ad6b7169203331");
            assertThat(server.attributes()).containsEntry("mcp.protocol.version", "2026-07-28");
            ReceivedSpan client = awaitSpan(collector, SpanKind.SPAN_KIND_CLIENT, trace);
            assertThat(upstreamCallMeta(legacy).getFirst().path("traceparent").asString())
                    .isEqualTo("00-" + trace + "-" + client.spanId() + "-01");
        }
    }

    @Test
    void aModernUpstreamGetsTheClientSpansContextBesideItsProtocolMeta() throws Exception {
        try (OtlpReceiver collector = OtlpReceiver.start();
             ModernHttpUpstream modern = ModernHttpUpstream.start();
             Gateway gateway = Gateway.start(new GatewayConfig(Optional.empty(), List.of(UpstreamConfig.of("remote",
                     UpstreamEndpoint.Http.of(modern.url().toString()))), List.of(), Optional.empty(), Limits.DEFAULTS,
                     Optional.empty(), new TelemetryOptions(true, Optional.empty(), false, Optional.of(
                             new TelemetryOptions.Traces(collector.endpoint().resolve("/v1/traces"), Map.of(), 1.0)))),
                     TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            ObjectNode params = Json.object().put("name", "remote__plain_tool");
            params.putObject("arguments");
            params.putObject("_meta").put("traceparent", TRACEPARENT);
            assertThat(HttpHost.modern(front.mcpUri()).request("tools/call", params).text())
                    .isEqualTo("plain_tool execution 1");

            ReceivedSpan client = awaitSpan(collector, SpanKind.SPAN_KIND_CLIENT, TRACE);
            assertThat(client.attributes()).containsEntry("mcp.protocol.version", "2026-07-28");
            JsonNode sent = modern.requests().stream().filter(request -> "tools/call".equals(request.rpcMethod()))
                    .map(request -> Json.parse(request.body()).path("params").path("_meta")).findFirst().orElseThrow();
            assertThat(sent.path("traceparent").asString()).isEqualTo("00-" + TRACE + "-" + client.spanId() + "-01");
            assertThat(sent.path("io.modelcontextprotocol/protocolVersion").asString()).isEqualTo("2026-07-28");
        }
    }

    @Test
    void aStdioHostsCallThroughMcpxServeIsTracedFromItsConfig(@TempDir Path dir) throws Exception {
        try (OtlpReceiver collector = OtlpReceiver.start(); LegacyHttpUpstream legacy = LegacyHttpUpstream.started()) {
            Path config = dir.resolve("mcpx.json");
            ObjectNode file = Json.object();
            file.putObject("mcpx").putObject("telemetry").put("endpoint", collector.endpoint().toString())
                    .put("sampling", 0.0).putObject("headers").put("Authorization", "Bearer ${COLLECTOR_KEY}");
            file.putObject("mcpServers").putObject("remote").put("type", "http").put("url", legacy.url().toString());
            Files.writeString(config, Json.write(file));

            try (ServeProcess serve = ServeProcess.start(Map.of("COLLECTOR_KEY", "from-env"), "serve", "-c",
                    config.toString(), "--stdio")) {
                OutputStream in = serve.process().getOutputStream();
                BufferedReader out = new BufferedReader(new InputStreamReader(serve.process().getInputStream(),
                        StandardCharsets.UTF_8));
                in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
                        + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                // an upstream slow to connect on a loaded machine is not in the catalogue yet: ask again until it answers
                JsonNode answer = null;
                for (int id = 2; id < 20 && (answer == null || !answer.has("result")); id++) {
                    ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
                    request.set("params", echo("hi", TRACEPARENT));
                    in.write((Json.write(request) + "\n").getBytes(StandardCharsets.UTF_8));
                    in.flush();
                    do {
                        answer = Json.parse(out.readLine());
                    } while (answer.path("id").asInt() != id);
                }
                assertThat(answer.path("result").path("content").path(0).path("text").asString()).isEqualTo("hi");

                // sampling 0 keeps no new trace, but the host sampled this one: its flag decides
                ReceivedSpan server = awaitSpan(collector, SpanKind.SPAN_KIND_SERVER, TRACE);
                assertThat(server.parentSpanId()).isEqualTo(HOST_SPAN);
                assertThat(server.attributes()).containsEntry("network.transport", "pipe")
                        .containsEntry("gen_ai.tool.name", "remote__echo");
                ReceivedSpan client = awaitSpan(collector, SpanKind.SPAN_KIND_CLIENT, TRACE);
                assertThat(client.parentSpanId()).isEqualTo(server.spanId());
                assertThat(upstreamCallMeta(legacy).getLast().path("traceparent").asString())
                        .isEqualTo("00-" + TRACE + "-" + client.spanId() + "-01");
                assertThat(collector.requestHeaders().getFirst()).containsEntry("Authorization", List.of("Bearer from-env"));
            }
        }
    }

    @Test
    void aCollectorThatNeverAnswersDoesNotDelayCalls() throws Exception {
        // accepts connections (the kernel's backlog) and never reads them: an export hangs until its timeout
        try (ServerSocket blackHole = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
             LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             Gateway gateway = Gateway.start(config(legacy, URI.create("http://127.0.0.1:" + blackHole.getLocalPort()), 1.0),
                     TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.legacy(front.mcpUri());
            host.initialize();
            for (int i = 0; i < 20; i++) {
                // each answers as it would without tracing (HttpHost gives every request 60 s, the export 10 s)
                assertThat(host.request("tools/call", echo("call " + i, TRACEPARENT)).text()).isEqualTo("call " + i);
            }
            assertThat(upstreamCallMeta(legacy)).hasSize(20)
                    .allSatisfy(meta -> assertThat(meta.path("traceparent").asString()).contains(TRACE));
        }
    }

    @Test
    void spansACollectorRefusesAreCountedAsDroppedAndLoggedInMcpxsLog() throws Exception {
        Logger sdkLog = (Logger) LoggerFactory.getLogger("io.opentelemetry");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        sdkLog.addAppender(lines);
        try (OtlpReceiver collector = OtlpReceiver.start().refusing();
             LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             Gateway gateway = Gateway.start(config(legacy, collector.endpoint(), 1.0), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.legacy(front.mcpUri());
            host.initialize();
            assertThat(host.request("tools/call", echo("hi", TRACEPARENT)).text()).isEqualTo("hi");
            HttpClient http = HttpClient.newHttpClient();
            URI metrics = front.mcpUri().resolve("/metrics");
            await().atMost(EXPORTED).untilAsserted(() -> assertThat(http.send(HttpRequest.newBuilder(metrics).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body()).containsPattern("mcpx_spans_dropped_total [1-9]"));
            // the SDK's own complaint reaches the operator through mcpx's logging, not as raw java.util.logging
            await().atMost(EXPORTED).until(() -> List.copyOf(lines.list).stream().anyMatch(line ->
                    line.getLevel().isGreaterOrEqual(Level.WARN) && line.getFormattedMessage().contains("400")));
        } finally {
            sdkLog.detachAppender(lines);
        }
    }
}

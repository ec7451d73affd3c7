package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Server->client interactions pass through within an era (issue 5) and across eras (issue 6), over real HTTP. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PassThroughTest {

    private LegacyHttpUpstream legacyUpstream;
    private ModernHttpUpstream modernUpstream;
    private Gateway gateway;
    private HttpFront front;

    @BeforeAll
    void start() throws Exception {
        legacyUpstream = LegacyHttpUpstream.started();
        modernUpstream = ModernHttpUpstream.start();
        gateway = Gateway.start(TestGateways.config(
                TestGateways.withPrefix(UpstreamConfig.of("legacy", UpstreamEndpoint.Http.of(legacyUpstream.url().toString())), "lh"),
                TestGateways.withPrefix(UpstreamConfig.of("modern", UpstreamEndpoint.Http.of(modernUpstream.url().toString())), "mh")),
                TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
    }

    @AfterAll
    void stop() throws Exception {
        front.close();
        gateway.close();
        legacyUpstream.close();
        modernUpstream.close();
    }

    private static HttpHost legacyHost(HttpFront front, ObjectNode capabilities) throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        ObjectNode params = Json.object().put("protocolVersion", "2025-11-25");
        params.set("capabilities", capabilities);
        params.putObject("clientInfo").put("name", "pass-through-host").put("version", "1");
        Exchange init = host.request("initialize", params);
        host.sessionId(init.headers().get("mcp-session-id").getFirst());
        host.send(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"), null);
        return host;
    }

    /** Calls {@code ask} on the legacy upstream; answers each request the gateway streams with {@code answer}. */
    private static List<JsonNode> callAsk(HttpHost host, String kind, java.util.function.Function<JsonNode, ObjectNode> answer)
            throws Exception {
        return host.callAnswering("lh__ask", Json.object().put("kind", kind), answer);
    }

    private static JsonNode last(List<JsonNode> messages) {
        return messages.getLast();
    }

    @Test
    void aLegacyUpstreamsElicitationReachesTheLegacyHostThatMadeTheCall() throws Exception {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("elicitation");
        HttpHost host = legacyHost(front, capabilities);
        List<JsonNode> seen = callAsk(host, "elicitation", asked -> {
            ObjectNode reply = Json.object();
            reply.putObject("result").put("action", "accept").putObject("content").put("name", "octocat");
            return reply;
        });
        assertThat(seen.stream().filter(m -> m.has("method")).map(m -> m.path("method").asString()))
                .containsExactly("elicitation/create");
        assertThat(last(seen).path("result").path("content").path(0).path("text").asString()).contains("octocat");
    }

    @Test
    void aLegacyUpstreamsSamplingReachesTheLegacyHostAndItsErrorGoesBack() throws Exception {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("sampling");
        HttpHost host = legacyHost(front, capabilities);
        List<JsonNode> seen = callAsk(host, "sampling", asked -> {
            ObjectNode reply = Json.object();
            reply.putObject("result").put("role", "assistant").put("model", "test-model")
                    .putObject("content").put("type", "text").put("text", "sampled!");
            return reply;
        });
        assertThat(seen.stream().filter(m -> m.has("method")).map(m -> m.path("method").asString()))
                .containsExactly("sampling/createMessage");
        assertThat(last(seen).path("result").path("content").path(0).path("text").asString()).contains("sampled!");
    }

    @Test
    void aLegacyHostWithoutTheCapabilityIsNotAskedAndTheCallDoesNotHang() throws Exception {
        HttpHost host = legacyHost(front, Json.object());
        List<JsonNode> seen = callAsk(host, "elicitation", asked -> {
            throw new AssertionError("the host must not be asked: " + asked);
        });
        JsonNode reply = last(seen);
        // the upstream got a JSON-RPC error for its elicitation and turned it into its own answer
        assertThat(reply.has("id")).isTrue();
        assertThat(reply.toString()).containsIgnoringCase("elicitation");
    }

    @Test
    void aModernUpstreamsInputRequiredResultReachesTheModernHostWhoseRetryGoesBack() throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        ObjectNode first = modernCall(1, null, null);
        Exchange asked = host.send(first, "tools/call");
        JsonNode result = asked.reply().path("result");
        assertThat(result.path("resultType").asString()).isEqualTo("input_required");
        String key = result.path("inputRequests").propertyNames().iterator().next();
        assertThat(result.path("inputRequests").path(key).path("method").asString()).isEqualTo("elicitation/create");
        JsonNode state = result.get("requestState");
        assertThat(state).isNotNull();

        ObjectNode responses = Json.object();
        responses.putObject(key).put("action", "accept").putObject("content").put("name", "octocat");
        Exchange retried = host.send(modernCall(2, responses, state), "tools/call");
        assertThat(retried.reply().path("result").path("resultType").asString()).isEqualTo("complete");
        assertThat(retried.text()).isEqualTo("hello octocat");
    }

    @Test
    void overTheStdioFrontTheLegacyHostIsAskedOnStdoutAndAnswersOnStdin() throws Exception {
        java.nio.channels.Pipe hostToGateway = java.nio.channels.Pipe.open();
        java.nio.channels.Pipe gatewayToHost = java.nio.channels.Pipe.open();
        dev.mcpx.front.stdio.StdioFront stdio = new dev.mcpx.front.stdio.StdioFront(gateway.hostRequests(),
                gateway.listChanges(), java.nio.channels.Channels.newInputStream(hostToGateway.source()),
                java.nio.channels.Channels.newOutputStream(gatewayToHost.sink()));
        Thread.ofVirtual().start(() -> {
            try {
                stdio.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try (dev.mcpx.gateway.LineHost host = new dev.mcpx.gateway.LineHost(
                java.nio.channels.Channels.newInputStream(gatewayToHost.source()),
                java.nio.channels.Channels.newOutputStream(hostToGateway.sink()))) {
            ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
            init.putObject("capabilities").putObject("elicitation");
            init.putObject("clientInfo").put("name", "stdio-host").put("version", "1");
            host.request("initialize", init);
            host.notify("notifications/initialized", null);
            ObjectNode params = Json.object().put("name", "lh__ask");
            params.putObject("arguments").put("kind", "elicitation");
            String id = host.send("tools/call", params);
            JsonNode asked = null;
            for (int i = 0; i < 50 && asked == null; i++) {
                JsonNode message = host.nextNotification(Duration.ofMillis(500));
                if (message != null && message.has("id")) {
                    asked = message;
                }
            }
            assertThat(asked).isNotNull();
            assertThat(asked.path("method").asString()).isEqualTo("elicitation/create");
            ObjectNode reply = Json.object().put("jsonrpc", "2.0");
            reply.set("id", asked.get("id"));
            reply.putObject("result").put("action", "accept").putObject("content").put("name", "stdio-cat");
            host.writeRaw(Json.write(reply));
            JsonNode result = host.reply(id, Duration.ofSeconds(30));
            assertThat(result.path("result").path("content").path(0).path("text").asString()).contains("stdio-cat");
        }
    }

    @Test
    void acrossErasEachHostIsAskedInItsOwnEra() throws Exception {
        // a modern host calling a legacy upstream that asks: an InputRequiredResult, the call held
        HttpHost modern = HttpHost.modern(front.mcpUri());
        ObjectNode call = Json.object().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call");
        ObjectNode params = call.putObject("params").put("name", "lh__ask");
        params.putObject("arguments").put("kind", "elicitation");
        ObjectNode meta = params.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.putObject("io.modelcontextprotocol/clientCapabilities").putObject("elicitation");
        JsonNode asked = modern.send(call, "tools/call").reply().path("result");
        assertThat(asked.path("resultType").asString()).isEqualTo("input_required");
        String key = asked.path("inputRequests").propertyNames().iterator().next();
        assertThat(asked.path("inputRequests").path(key).path("method").asString()).isEqualTo("elicitation/create");

        // a legacy host calling a modern upstream that needs elicitation: asked on its call's stream
        ObjectNode capabilities = Json.object();
        capabilities.putObject("elicitation");
        HttpHost legacy = legacyHost(front, capabilities);
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 8).put("method", "tools/call");
        body.putObject("params").put("name", "mh__mrtr_tool").putObject("arguments");
        HttpResponse<Stream<String>> response = legacy.client().send(legacy.builder(body, "tools/call").build(),
                HttpResponse.BodyHandlers.ofLines());
        List<JsonNode> seen = new ArrayList<>();
        Iterator<String> lines = response.body().iterator();
        while (lines.hasNext()) {
            String line = lines.next();
            JsonNode message = line.startsWith("data:") ? Json.parse(line.substring(5).trim())
                    : line.startsWith("{") ? Json.parse(line) : null;
            if (message == null) {
                continue;
            }
            seen.add(message);
            if (message.has("method") && message.has("id")) {
                ObjectNode reply = Json.object().put("jsonrpc", "2.0");
                reply.set("id", message.get("id"));
                reply.putObject("result").put("action", "accept").putObject("content").put("name", "octocat");
                legacy.send(reply, null);
            } else if (message.has("id")) {
                break;
            }
        }
        assertThat(seen.stream().filter(m -> m.has("method")).map(m -> m.path("method").asString()))
                .containsExactly("elicitation/create");
        assertThat(last(seen).path("result").path("content").path(0).path("text").asString()).isEqualTo("hello octocat");
    }

    @Test
    void twoLegacyHostsAskedAtOnceEachGetTheirOwnUpstreamRequest() throws Exception {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("elicitation");
        HttpHost alice = legacyHost(front, capabilities);
        HttpHost bob = legacyHost(front, capabilities);
        // both calls are in flight on the shared upstream session before either host answers
        java.util.concurrent.CountDownLatch bothAsked = new java.util.concurrent.CountDownLatch(2);
        java.util.function.Function<String, java.util.function.Function<JsonNode, ObjectNode>> answerAs = name -> asked -> {
            bothAsked.countDown();
            try {
                assertThat(bothAsked.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            ObjectNode reply = Json.object();
            reply.putObject("result").put("action", "accept").putObject("content").put("name", name);
            return reply;
        };
        var aliceCall = java.util.concurrent.CompletableFuture.supplyAsync(() -> ask(alice, answerAs.apply("alice")),
                java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        var bobCall = java.util.concurrent.CompletableFuture.supplyAsync(() -> ask(bob, answerAs.apply("bob")),
                java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        String aliceText = last(aliceCall.get(60, java.util.concurrent.TimeUnit.SECONDS)).path("result").path("content").path(0).path("text").asString();
        String bobText = last(bobCall.get(60, java.util.concurrent.TimeUnit.SECONDS)).path("result").path("content").path(0).path("text").asString();
        assertThat(aliceText).contains("alice").doesNotContain("bob");
        assertThat(bobText).contains("bob").doesNotContain("alice");
    }

    private static List<JsonNode> ask(HttpHost host, java.util.function.Function<JsonNode, ObjectNode> answer) {
        try {
            return callAsk(host, "elicitation", answer);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode modernCall(int id, ObjectNode inputResponses, JsonNode requestState) {
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        ObjectNode params = body.putObject("params").put("name", "mh__mrtr_tool");
        params.putObject("arguments");
        ObjectNode meta = params.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "pass-through-host").put("version", "1");
        meta.putObject("io.modelcontextprotocol/clientCapabilities").putObject("elicitation");
        if (inputResponses != null) {
            params.set("inputResponses", inputResponses);
            params.set("requestState", requestState);
        }
        return body;
    }
}

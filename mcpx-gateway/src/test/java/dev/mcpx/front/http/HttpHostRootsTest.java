package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.pool.Upstream;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Legacy HTTP hosts' roots reach an upstream that asks {@code roots/list} outside any call (the
 * reference server everything, as roots-mode servers such as filesystem do): mcpx asks each host
 * that declared {@code roots} on its GET stream, keeps them per session, answers the shared
 * upstream session with their union, and asks again when a host says they changed or when a
 * session ends, as it does for stdio hosts.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpHostRootsTest {

    /** A legacy HTTP host that declares roots, opens its GET stream after initialized, and answers roots/list there. */
    private static HttpHost host(HttpFront front, AtomicReference<ArrayNode> roots) throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities").putObject("roots").put("listChanged", true);
        init.putObject("clientInfo").put("name", "http-roots-host").put("version", "1");
        HttpHost.Exchange initialized = host.request("initialize", init);
        host.sessionId(initialized.headers().get("mcp-session-id").getFirst());
        host.send(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"), null);
        SseSocket listen = SseSocket.get(front.port(), host.sessionId(), null);
        assertThat(listen.status).isEqualTo(200);
        Thread.ofVirtual().start(() -> {
            try (listen) {
                for (SseSocket.Event event = listen.next(); event != null; event = listen.next()) {
                    JsonNode asked = event.data() == null || event.data().isEmpty() ? null : Json.parse(event.data());
                    if (asked != null && "roots/list".equals(asked.path("method").asString()) && asked.has("id")) {
                        ObjectNode reply = Json.object().put("jsonrpc", "2.0");
                        reply.set("id", asked.get("id"));
                        reply.putObject("result").set("roots", roots.get());
                        host.send(reply, null);
                    }
                }
            } catch (Exception e) {
                // the session ended, or the test is over
            }
        });
        return host;
    }

    private static ArrayNode roots(String... uris) {
        ArrayNode roots = Json.array();
        for (String uri : uris) {
            roots.addObject().put("uri", uri).put("name", uri.substring(uri.lastIndexOf('/') + 1));
        }
        return roots;
    }

    private static String rootsTheServerKnows(HttpHost host) throws Exception {
        return host.call("everything__get-roots-list", Json.object()).text();
    }

    /** Waits for the upstream's log line "Roots updated: N root(s)" after the first {@code seen} lines. */
    private static int awaitFetch(ListAppender<ILoggingEvent> logs, int seen, int roots) {
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> List.copyOf(logs.list).stream().skip(seen)
                .anyMatch(event -> event.getFormattedMessage().contains("Roots updated: " + roots + " root(s)")));
        return List.copyOf(logs.list).size();
    }

    @Test
    void theServerGetsTheLegacyHttpHostsRootsOutsideACallAndEveryChangeOfThem() throws Exception {
        List<String> command = NodeTools.require().serverEverythingStdio();
        UpstreamConfig everything = UpstreamConfig.of("everything",
                new UpstreamEndpoint.Stdio(command.getFirst(), command.subList(1, command.size()), Map.of(), null, false));
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        Logger upstreamLog = (Logger) LoggerFactory.getLogger(Upstream.class);
        Level level = upstreamLog.getLevel();
        upstreamLog.setLevel(Level.DEBUG);
        logs.start();
        upstreamLog.addAppender(logs);
        try (Gateway gateway = Gateway.start(TestGateways.config(everything), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            AtomicReference<ArrayNode> first = new AtomicReference<>(roots("file:///work/alpha"));
            HttpHost one = host(front, first);
            int seen = awaitFetch(logs, 0, 1);
            assertThat(rootsTheServerKnows(one)).contains("file:///work/alpha");

            first.set(roots("file:///work/beta"));
            one.send(Json.object().put("jsonrpc", "2.0").put("method", "notifications/roots/list_changed"), null);
            seen = awaitFetch(logs, seen, 1);
            assertThat(rootsTheServerKnows(one)).contains("file:///work/beta").doesNotContain("alpha");

            // a second host's roots join the shared upstream session's; they leave with its session
            HttpHost two = host(front, new AtomicReference<>(roots("file:///work/gamma")));
            seen = awaitFetch(logs, seen, 2);
            assertThat(rootsTheServerKnows(one)).contains("file:///work/beta", "file:///work/gamma");
            int deleted = two.raw(HttpRequest.newBuilder(front.mcpUri()).header("Mcp-Session-Id", two.sessionId())
                    .DELETE().build()).statusCode();
            assertThat(deleted).isEqualTo(200);
            awaitFetch(logs, seen, 1);
            assertThat(rootsTheServerKnows(one)).contains("file:///work/beta").doesNotContain("gamma");
        } finally {
            upstreamLog.detachAppender(logs);
            upstreamLog.setLevel(level);
        }
    }
}

package dev.mcpx.front.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.pool.Upstream;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.transport.UpstreamEndpoint;
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
 * The reference server everything asks {@code roots/list} outside any call (when it connects
 * and after {@code notifications/roots/list_changed}), as roots-mode servers such as filesystem
 * do. Through mcpx it gets the stdio hosts' roots (their union: the upstream session is shared),
 * hears when a host's roots change, and loses a host's roots when that host goes away.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostRootsTest {

    /** A stdio host on the gateway that declares roots and answers mcpx's roots/list with {@code roots}. */
    private static LineHost host(Gateway gateway, AtomicReference<ArrayNode> roots) throws Exception {
        LineHost host = LineHost.ofStdioFront(gateway);
        Thread.ofVirtual().start(() -> {
            try {
                for (JsonNode asked = host.nextNotification(Duration.ofMinutes(5)); asked != null;
                     asked = host.nextNotification(Duration.ofMinutes(5))) {
                    if ("roots/list".equals(asked.path("method").asString()) && asked.has("id")) {
                        ObjectNode reply = Json.object().put("jsonrpc", "2.0");
                        reply.set("id", asked.get("id"));
                        reply.putObject("result").set("roots", roots.get());
                        host.writeRaw(Json.write(reply));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities").putObject("roots").put("listChanged", true);
        init.putObject("clientInfo").put("name", "roots-host").put("version", "1");
        host.request("initialize", init);
        host.notify("notifications/initialized", null);
        return host;
    }

    private static ArrayNode roots(String... uris) {
        ArrayNode roots = Json.array();
        for (String uri : uris) {
            roots.addObject().put("uri", uri).put("name", uri.substring(uri.lastIndexOf('/') + 1));
        }
        return roots;
    }

    private static String rootsTheServerKnows(LineHost host) throws Exception {
        ObjectNode call = Json.object().put("name", "everything__get-roots-list");
        call.putObject("arguments");
        return host.request("tools/call", call).path("result").path("content").path(0).path("text").asString();
    }

    /**
     * Waits for an upstream log line "Roots updated: N root(s)" after the first {@code seen}
     * lines (it logs one each time it fetched them), so no call is in flight when it asks: over
     * stdio an ask during the one call in flight goes to that call's host alone. Returns the lines seen.
     */
    private static int awaitFetch(ListAppender<ILoggingEvent> logs, int seen, int roots) {
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> List.copyOf(logs.list).stream().skip(seen)
                .anyMatch(event -> event.getFormattedMessage().contains("Roots updated: " + roots + " root(s)")));
        return List.copyOf(logs.list).size();
    }

    @Test
    void theServerGetsTheHostsRootsOutsideACallAndEveryChangeOfThem() throws Exception {
        List<String> command = NodeTools.require().serverEverythingStdio();
        UpstreamConfig everything = UpstreamConfig.of("everything",
                new UpstreamEndpoint.Stdio(command.getFirst(), command.subList(1, command.size()), Map.of(), null, false));
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        Logger upstreamLog = (Logger) LoggerFactory.getLogger(Upstream.class);
        Level level = upstreamLog.getLevel();
        upstreamLog.setLevel(Level.DEBUG);
        logs.start();
        upstreamLog.addAppender(logs);
        try (Gateway gateway = Gateway.start(TestGateways.config(everything), TestGateways.settings(), Map.of())) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            AtomicReference<ArrayNode> first = new AtomicReference<>(roots("file:///work/alpha"));
            LineHost one = host(gateway, first);
            int seen = awaitFetch(logs, 0, 1);
            assertThat(rootsTheServerKnows(one)).contains("file:///work/alpha");

            // the host's roots change: it says so, mcpx asks it again and tells the upstream
            first.set(roots("file:///work/beta"));
            one.notify("notifications/roots/list_changed", null);
            seen = awaitFetch(logs, seen, 1);
            assertThat(rootsTheServerKnows(one)).contains("file:///work/beta").doesNotContain("alpha");

            // a second host's roots join the shared session's; they leave with it
            LineHost two = host(gateway, new AtomicReference<>(roots("file:///work/gamma")));
            seen = awaitFetch(logs, seen, 2);
            assertThat(rootsTheServerKnows(one)).contains("file:///work/beta", "file:///work/gamma");
            two.close();
            awaitFetch(logs, seen, 1);
            assertThat(rootsTheServerKnows(one)).contains("file:///work/beta").doesNotContain("gamma");
            one.close();
        } finally {
            upstreamLog.detachAppender(logs);
            upstreamLog.setLevel(level);
        }
    }
}

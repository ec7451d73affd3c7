package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.ConfigLoader;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Upstreams that never start, config edits applied live, host-facing pagination. */
class GatewayLifecycleTest {

    @TempDir
    Path dir;

    private Gateway gateway;
    private LineHost host;

    @AfterEach
    void stop() throws Exception {
        if (host != null) {
            host.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private LineHost connect(Gateway target) throws Exception {
        LineHost connected = LineHost.ofStdioFront(target);
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "lifecycle-host").put("version", "1");
        connected.request("initialize", init);
        connected.notify("notifications/initialized", null);
        return connected;
    }

    private static List<String> toolNames(JsonNode reply) {
        List<String> names = new ArrayList<>();
        reply.path("result").path("tools").forEach(tool -> names.add(tool.path("name").asString()));
        return names;
    }

    private UpstreamStatus status(String name) {
        return gateway.status().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void anUpstreamThatNeverAnswersFailsWithinItsStartTimeoutAndDelaysNoOther() throws Exception {
        UpstreamConfig mute = new UpstreamConfig("mute", new UpstreamEndpoint.Stdio("sleep", List.of("600"), Map.of(), null, true),
                "mute", Map.of(), Duration.ofSeconds(5), Duration.ofMillis(1500), true);
        UpstreamConfig closed = UpstreamConfig.of("closed", UpstreamEndpoint.Http.of("http://127.0.0.1:1/mcp"));
        gateway = Gateway.start(TestGateways.config(mute, closed, TestGateways.fake("fake")), TestGateways.settings(), Map.of());
        host = connect(gateway);

        JsonNode tools = host.request("tools/list", null);
        assertThat(toolNames(tools)).contains("fake__echo").noneMatch(n -> n.startsWith("mute") || n.startsWith("closed"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(status("mute").state()).isEqualTo("failed");
            assertThat(status("mute").reason()).contains("did not finish connecting within 1500 ms");
            assertThat(status("closed").state()).isEqualTo("failed");
        });
        ObjectNode call = Json.object().put("name", "fake__echo");
        call.putObject("arguments").put("text", "still here");
        assertThat(host.request("tools/call", call).path("result").path("content").path(0).path("text").asString())
                .isEqualTo("Echo: still here");
    }

    @Test
    void aHostServedBeforeTheUpstreamsStartWaitsForThemAndGetsTheirTools() throws Exception {
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started()) {
            gateway = Gateway.create(TestGateways.config(UpstreamConfig.of("remote", UpstreamEndpoint.Http.of(legacy.url().toString()))),
                    TestGateways.settings(), Map.of());
            host = connect(gateway);
            assertThat(status("remote").state()).isEqualTo("starting");
            assertThat(legacy.requests()).as("nothing sent upstream before startUpstreams").isEmpty();

            CompletableFuture<JsonNode> listed = CompletableFuture.supplyAsync(() -> {
                try {
                    return host.request("tools/list", null);
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            });
            // an empty list now would be a catalogue without the configured upstream
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !listed.isDone());
            gateway.startUpstreams();
            assertThat(toolNames(listed.get(30, TimeUnit.SECONDS))).contains("remote__echo");
        }
    }

    @Test
    void configEditsAreAppliedLiveAndHostsAreTold() throws Exception {
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, Json.write(configWith("one")));
        gateway = Gateway.start(new ConfigLoader(Map.of()).load(file), TestGateways.settings(), Map.of());
        host = connect(gateway);
        assertThat(toolNames(host.request("tools/list", null))).contains("one__echo");
        drain();

        Files.writeString(file, Json.write(configWith("one", "two")));
        awaitListChanged();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(toolNames(host.request("tools/list", null))).contains("one__echo", "two__echo"));
        long onePid = status("one").pid();

        Files.writeString(file, Json.write(configWith("two")));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(toolNames(host.request("tools/list", null))).contains("two__echo").noneMatch(n -> n.startsWith("one__")));
        assertThat(gateway.status()).extracting(UpstreamStatus::name).containsExactly("two");
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(onePid).map(p -> !p.isAlive()).orElse(true));

        Files.writeString(file, "{ not json");
        await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(gateway.status()).extracting(UpstreamStatus::name).containsExactly("two"));
    }

    @Test
    void aModernStdioHostHearsChangesOnItsSubscription() throws Exception {
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("one")), TestGateways.settings(), Map.of());
        host = connect(gateway);
        host.request("tools/list", null);
        drain();
        ObjectNode listen = Json.object();
        listen.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        listen.putObject("notifications").put("toolsListChanged", true).put("promptsListChanged", true);
        String id = host.send("subscriptions/listen", listen);
        JsonNode ack = host.nextNotification(Duration.ofSeconds(5));
        assertThat(ack.path("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(ack.path("params").path("_meta").path("io.modelcontextprotocol/subscriptionId").asLong())
                .isEqualTo(Long.parseLong(id));

        gateway.reload(TestGateways.config(TestGateways.fake("one"), TestGateways.fake("two")));
        boolean tagged = false;
        for (JsonNode note = host.nextNotification(Duration.ofSeconds(20)); note != null && !tagged;
                note = host.nextNotification(Duration.ofSeconds(5))) {
            tagged = note.path("method").asString().equals("notifications/tools/list_changed")
                    && note.path("params").path("_meta").path("io.modelcontextprotocol/subscriptionId").asLong() == Long.parseLong(id);
        }
        assertThat(tagged).isTrue();
    }

    @Test
    void largeCataloguesArePagedToHosts() throws Exception {
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("a"), TestGateways.fake("b")),
                TestGateways.settings().withPageSize(5), Map.of());
        host = connect(gateway);
        List<String> names = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            ObjectNode params = cursor == null ? null : Json.object().put("cursor", cursor);
            JsonNode page = host.request("tools/list", params);
            names.addAll(toolNames(page));
            cursor = page.path("result").path("nextCursor").asString(null);
            pages++;
        } while (cursor != null);
        assertThat(pages).isGreaterThan(2);
        assertThat(names).contains("a__echo", "b__cancellations").doesNotHaveDuplicates();
    }

    private ObjectNode configWith(String... names) {
        ObjectNode root = Json.object();
        ObjectNode servers = root.putObject("mcpServers");
        for (String name : names) {
            UpstreamEndpoint.Stdio fake = (UpstreamEndpoint.Stdio) TestGateways.fake(name).endpoint();
            ObjectNode entry = servers.putObject(name).put("command", fake.command());
            ArrayNode args = entry.putArray("args");
            fake.args().forEach(args::add);
        }
        return root;
    }

    private void drain() throws InterruptedException {
        while (host.nextNotification(Duration.ofMillis(300)) != null) {
            // earlier list_changed notifications from the start
        }
    }

    private void awaitListChanged() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode note = host.nextNotification(Duration.ofSeconds(1));
            if (note != null && "notifications/tools/list_changed".equals(note.path("method").asString())) {
                return;
            }
        }
        throw new AssertionError("no notifications/tools/list_changed");
    }
}

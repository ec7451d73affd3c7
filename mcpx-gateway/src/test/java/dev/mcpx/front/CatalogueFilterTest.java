package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.NameFilter;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.protocol.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream's catalogue through its config filter, as hosts of both fronts and both eras see
 * it: a filtered tool, prompt or resource is not listed and is refused as unknown when a host
 * asks for it by name anyway; a filter edit reaches hosts live as list_changed, without a restart.
 */
class CatalogueFilterTest {

    private static final CatalogueFilter NO_WRITES = new CatalogueFilter(
            new NameFilter(List.of(), List.of("s?eep", "die", "touch")), NameFilter.ALL,
            new NameFilter(List.of(), List.of("fake://*")));

    @TempDir
    Path dir;

    private Gateway gateway;
    private HttpFront front;
    private LineHost stdioHost;

    @AfterEach
    void stop() throws Exception {
        if (stdioHost != null) {
            stdioHost.close();
        }
        if (front != null) {
            front.close();
        }
        gateway.close();
    }

    @Test
    void filteredToolsAreNeitherListedNorCallableOverHttpInBothEras() throws Exception {
        startHttp(NO_WRITES);
        for (HttpHost host : List.of(HttpHost.legacy(front.mcpUri()), HttpHost.modern(front.mcpUri()))) {
            if (host.sessionId() == null) {
                host.initialize();
            }
            assertThat(toolNames(host.request("tools/list", null).reply())).contains("one__echo", "one__add")
                    .doesNotContain("one__sleep", "one__die", "one__touch");

            HttpHost.Exchange filtered = host.call("one__touch", Json.object());
            HttpHost.Exchange neverListed = host.call("one__no_such_tool", Json.object());
            assertThat(filtered.reply().has("error")).as(filtered.body()).isTrue();
            assertThat(filtered.errorCode()).isEqualTo(neverListed.errorCode());
            assertThat(filtered.reply().path("error").path("message").asString())
                    .isEqualTo(neverListed.reply().path("error").path("message").asString().replace("no_such_tool", "touch"));
            assertThat(host.call("one__echo", Json.object().put("text", "kept")).text()).isEqualTo("Echo: kept");
        }
        assertThat(executions("touch")).as("the filtered tool never ran").isZero();
    }

    @Test
    void filteredResourcesAreNeitherListedNorReadable() throws Exception {
        startHttp(NO_WRITES);
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        assertThat(host.request("resources/list", null).reply().path("result").path("resources")).isEmpty();
        HttpHost.Exchange read = host.request("resources/read", Json.object().put("uri", "fake://note"));
        assertThat(read.reply().has("error")).as(read.body()).isTrue();
    }

    @Test
    void filteredToolsAreNeitherListedNorCallableOverStdio() throws Exception {
        gateway = Gateway.start(TestGateways.config(fake().withFilter(NO_WRITES)),
                TestGateways.settings(), Map.of());
        connectStdioHost();
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "test-host").put("version", "1");
        stdioHost.request("initialize", init);
        stdioHost.notify("notifications/initialized", null);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(toolNames(stdioHost.request("tools/list", null))).contains("one__echo"));
        assertThat(toolNames(stdioHost.request("tools/list", null))).doesNotContain("one__sleep", "one__touch");
        JsonNode refused = stdioHost.request("tools/call", Json.object().put("name", "one__touch").set("arguments", Json.object()));
        assertThat(refused.has("error")).as(refused.toString()).isTrue();
        assertThat(refused.path("error").path("message").asString()).contains("one__touch");
        assertThat(executions("touch")).isZero();
    }

    @Test
    void aFilterEditReachesHostsLiveWithoutRestartingTheUpstream() throws Exception {
        startHttp(NO_WRITES);
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        assertThat(toolNames(host.request("tools/list", null).reply())).doesNotContain("one__touch");
        long pid = status().pid();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        host.client().sendAsync(HttpRequest.newBuilder(front.mcpUri()).header("Accept", "text/event-stream")
                        .header("Mcp-Session-Id", host.sessionId()).GET().build(), HttpResponse.BodyHandlers.ofLines())
                .thenAcceptAsync(response -> response.body().forEach(lines::add), task -> Thread.ofVirtual().start(task));
        await().atMost(Duration.ofSeconds(10)).until(() -> lines.stream().anyMatch(line -> line.startsWith("id:")));
        // a list change from the start-up may still be on its way: what counts comes after the edit
        lines.clear();

        UpstreamConfig edited = gateway.config().upstream("one").orElseThrow()
                .withFilter(new CatalogueFilter(new NameFilter(List.of("echo", "touch"), List.of()), NameFilter.ALL, NameFilter.ALL));
        gateway.reload(TestGateways.config(edited));

        await().atMost(Duration.ofSeconds(10)).until(() -> lines.stream().anyMatch(line -> line.contains("notifications/tools/list_changed")));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(toolNames(host.request("tools/list", null).reply())).containsExactlyInAnyOrder("one__echo", "one__touch"));
        assertThat(host.call("one__touch", Json.object()).reply().has("result")).isTrue();
        assertThat(host.call("one__add", Json.object().put("a", 1).put("b", 2)).reply().has("error"))
                .as("no longer allowed").isTrue();
        assertThat(status().pid()).as("the same child: a filter edit is no restart").isEqualTo(pid);
        assertThat(status().restarts()).isZero();
    }

    private void startHttp(CatalogueFilter filter) throws Exception {
        gateway = Gateway.start(TestGateways.config(fake().withFilter(filter)),
                TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        await().atMost(Duration.ofSeconds(20)).until(() -> status().state().equals("up")
                && gateway.catalogue().tool("one__echo").isPresent());
    }

    private void connectStdioHost() throws IOException {
        stdioHost = LineHost.ofStdioFront(gateway);
    }

    private UpstreamStatus status() {
        return gateway.status().stream().filter(s -> s.name().equals("one")).findFirst().orElseThrow();
    }

    private UpstreamConfig fake() {
        return TestGateways.fake("one", "--resources", "--ledger", dir.resolve("ledger").toString());
    }

    /** How often the fake ran {@code tool}: its ledger has a line per execution. */
    private long executions(String tool) throws IOException {
        Path ledger = dir.resolve("ledger");
        return Files.exists(ledger) ? Files.readAllLines(ledger).stream().filter(tool::equals).count() : 0;
    }

    private static List<String> toolNames(JsonNode reply) {
        List<String> names = new ArrayList<>();
        reply.path("result").path("tools").forEach(tool -> names.add(tool.path("name").asString()));
        return names;
    }
}

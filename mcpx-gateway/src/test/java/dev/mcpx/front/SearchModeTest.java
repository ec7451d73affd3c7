package dev.mcpx.front;

import static dev.mcpx.front.ProfilesTest.toolNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.NameFilter;
import dev.mcpx.catalogue.Profile;
import dev.mcpx.catalogue.Profiles;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.Limits;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Search mode through the real gateway: hosts are listed the three meta-tools and the pinned
 * tools, find a tool they were never listed, read its schema and call it, on both fronts and in
 * both eras; a call through {@code mcpx__call_tool} takes the direct call's path (profile
 * filters, re-issue gating), and the index follows the upstream's list changes.
 */
class SearchModeTest {

    private static final List<String> META = List.of("mcpx__search_tools", "mcpx__describe_tool", "mcpx__call_tool");
    private static final Profile FIND = new Profile("find", List.of("one"), new CatalogueFilter(
            new NameFilter(List.of(), List.of("one__touch")), NameFilter.ALL, NameFilter.ALL),
            new Profile.Search(true, List.of("one__echo")));

    @TempDir
    Path dir;

    private Gateway gateway;
    private HttpFront front;
    private LineHost stdioHost;
    private ModernHttpUpstream modern;

    @AfterEach
    void stop() throws Exception {
        if (stdioHost != null) {
            stdioHost.close();
        }
        if (front != null) {
            front.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (modern != null) {
            modern.close();
        }
    }

    @Test
    void anHttpHostFindsDescribesAndCallsAToolItWasNeverListedInBothEras() throws Exception {
        startHttp(new Profiles(Profile.WHOLE, Map.of("find", FIND)));
        for (boolean modernHost : List.of(false, true)) {
            HttpHost host = modernHost ? HttpHost.modern(profileUri("find")) : HttpHost.legacy(profileUri("find"));
            if (!modernHost) {
                host.initialize();
            }
            List<String> listed = toolNames(host.request("tools/list", null).reply());
            assertThat(listed).containsExactly("mcpx__search_tools", "mcpx__describe_tool", "mcpx__call_tool", "one__echo");

            JsonNode found = host.call("mcpx__search_tools", Json.object().put("query", "fake add")).reply()
                    .path("result").path("structuredContent").path("tools");
            assertThat(found.path(0).path("name").asString()).as(found.toString()).isEqualTo("one__add");

            JsonNode described = host.call("mcpx__describe_tool", Json.object().put("name", "one__add")).reply()
                    .path("result").path("structuredContent").path("tool");
            assertThat(described.path("inputSchema").path("type").asString()).isEqualTo("object");

            HttpHost.Exchange called = host.call("mcpx__call_tool", Json.object().put("name", "one__add")
                    .set("arguments", Json.object().put("a", 2).put("b", 3)));
            assertThat(called.text()).as(called.body()).isEqualTo("5");
        }
        assertThat(executions("add")).isEqualTo(2);
    }

    @Test
    void aStdioHostFindsAndCallsAToolItWasNeverListedInBothErasAndTheIndexFollowsListChanges() throws Exception {
        gateway = Gateway.start(config(new Profiles(Profile.WHOLE, Map.of("find", FIND)), fake()),
                TestGateways.settings(), Map.of());
        awaitUp();
        connectStdioHost("find");
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "test-host").put("version", "1");
        stdioHost.request("initialize", init);
        stdioHost.notify("notifications/initialized", null);
        for (boolean modernHost : List.of(false, true)) {
            assertThat(toolNames(stdioHost.request("tools/list", era(modernHost, Json.object()))))
                    .containsExactly("mcpx__search_tools", "mcpx__describe_tool", "mcpx__call_tool", "one__echo");
            JsonNode found = stdioHost.request("tools/call", era(modernHost, call("mcpx__search_tools",
                    Json.object().put("query", "add")))).path("result").path("structuredContent").path("tools");
            assertThat(found.path(0).path("name").asString()).as(found.toString()).isEqualTo("one__add");
            JsonNode called = stdioHost.request("tools/call", era(modernHost, call("mcpx__call_tool", Json.object()
                    .put("name", "one__add").set("arguments", Json.object().put("a", 20).put("b", 1)))));
            assertThat(called.path("result").path("content").path(0).path("text").asString()).as(called.toString())
                    .isEqualTo("21");
        }

        stdioHost.request("tools/call", call("mcpx__call_tool", Json.object().put("name", "one__add_tool")
                .set("arguments", Json.object().put("name", "launch_rocket"))));
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            JsonNode note = stdioHost.nextNotification(Duration.ofSeconds(1));
            return note != null && "notifications/tools/list_changed".equals(note.path("method").asString());
        });
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(stdioHost.request("tools/call",
                call("mcpx__search_tools", Json.object().put("query", "launch rocket"))).path("result")
                .path("structuredContent").path("tools").path(0).path("name").asString()).isEqualTo("one__launch_rocket"));
    }

    @Test
    void callToolKeepsTheProfilesFiltersAToolOutsideIsUnknownAndNeverRuns() throws Exception {
        startHttp(new Profiles(Profile.WHOLE, Map.of("find", FIND)));
        HttpHost host = HttpHost.modern(profileUri("find"));
        JsonNode found = host.call("mcpx__search_tools", Json.object().put("query", "fake touch")).reply()
                .path("result").path("structuredContent").path("tools");
        assertThat(found.findValuesAsString("name")).doesNotContain("one__touch");
        assertThat(host.call("mcpx__describe_tool", Json.object().put("name", "one__touch")).reply()
                .path("result").path("isError").asBoolean()).isTrue();
        HttpHost.Exchange refused = host.call("mcpx__call_tool", Json.object().put("name", "one__touch"));
        assertThat(refused.reply().path("error").path("message").asString()).as(refused.body())
                .isEqualTo("Unknown tool: one__touch");
        assertThat(executions("touch")).isZero();
    }

    @Test
    void gatewayWideSearchModeServesSlashMcpItself() throws Exception {
        startHttp(new Profiles(new Profile("", List.of(), CatalogueFilter.NONE, new Profile.Search(true, List.of())),
                Map.of()));
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        assertThat(toolNames(host.request("tools/list", null).reply())).containsExactlyElementsOf(META);
        assertThat(host.call("mcpx__call_tool", Json.object().put("name", "one__echo")
                .set("arguments", Json.object().put("text", "direct"))).text()).isEqualTo("Echo: direct");
    }

    @Test
    void aCallThroughCallToolIsGatedLikeADirectCallWhenTheModernStreamBreaks() throws Exception {
        modern = ModernHttpUpstream.start();
        Profiles search = new Profiles(new Profile("", List.of(), CatalogueFilter.NONE, new Profile.Search(true, List.of())),
                Map.of());
        gateway = Gateway.start(config(search, UpstreamConfig.of("m", UpstreamEndpoint.Http.of(modern.url().toString()))),
                TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        await().atMost(Duration.ofSeconds(30)).until(() -> gateway.catalogue().tool("m__destructive_tool").isPresent());
        HttpHost host = HttpHost.modern(front.mcpUri());

        modern.breakStream("read_only_tool", 1);
        HttpHost.Exchange read = host.call("mcpx__call_tool", Json.object().put("name", "m__read_only_tool"));
        assertThat(read.reply().has("result")).as("a read-only tool is re-issued: " + read.body()).isTrue();
        assertThat(modern.executions("read_only_tool")).isEqualTo(2);

        modern.breakStream("destructive_tool", 1);
        HttpHost.Exchange destructive = host.call("mcpx__call_tool", Json.object().put("name", "m__destructive_tool"));
        assertThat(destructive.reply().has("error")).as("a destructive tool is not: " + destructive.body()).isTrue();
        assertThat(modern.executions("destructive_tool")).isEqualTo(1);
    }

    private URI profileUri(String name) {
        return front.mcpUri().resolve("/mcp/" + name);
    }

    private void startHttp(Profiles profiles) throws Exception {
        gateway = Gateway.start(config(profiles, fake()), TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        awaitUp();
    }

    private void awaitUp() {
        await().atMost(Duration.ofSeconds(30)).until(() -> gateway.catalogue().tool("one__add").isPresent());
    }

    private static GatewayConfig config(Profiles profiles, UpstreamConfig... upstreams) {
        return new GatewayConfig(Optional.empty(), List.of(upstreams), List.of(), Optional.empty(), Limits.DEFAULTS,
                Optional.empty(), profiles);
    }

    private UpstreamConfig fake() {
        return TestGateways.fake("one", "--ledger", dir.resolve("ledger").toString());
    }

    private void connectStdioHost(String profile) throws IOException {
        stdioHost = LineHost.ofStdioFront(gateway, profile);
    }

    private static ObjectNode call(String tool, ObjectNode arguments) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        return params;
    }

    private static ObjectNode era(boolean modern, ObjectNode params) {
        if (modern) {
            params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                    .putObject("io.modelcontextprotocol/clientCapabilities");
        }
        return params;
    }

    private long executions(String tool) throws IOException {
        Path ledger = dir.resolve("ledger");
        return Files.exists(ledger) ? Files.readAllLines(ledger).stream().filter(tool::equals).count() : 0;
    }
}

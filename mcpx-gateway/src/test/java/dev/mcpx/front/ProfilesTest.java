package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.NameFilter;
import dev.mcpx.catalogue.Profile;
import dev.mcpx.catalogue.Profiles;
import dev.mcpx.config.FrontToken;
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
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two hosts on two profiles, through the real gateway on both fronts and in both eras: each sees
 * only its profile's catalogue, and a tool of the other profile is refused as unknown and never
 * runs. HTTP hosts choose a profile by path ({@code /mcp/<profile>}) or by a token bound to it.
 */
class ProfilesTest {

    /** "review" gets server one without its writing tools; "ops" gets server two. */
    private static final Profile REVIEW = new Profile("review", List.of("one"), new CatalogueFilter(
            new NameFilter(List.of(), List.of("one__touch", "one__s*")), NameFilter.ALL, NameFilter.ALL),
            Profile.Search.OFF);
    private static final Profile OPS = new Profile("ops", List.of("two"), CatalogueFilter.NONE, Profile.Search.OFF);
    private static final List<FrontToken> TOKENS = List.of(
            new FrontToken("team", "team-secret", FrontToken.Scope.ALL),
            new FrontToken("alice", "alice-secret", FrontToken.Scope.ALL, "review"),
            new FrontToken("bob", "bob-secret", FrontToken.Scope.ALL, "ops"));

    @TempDir
    Path dir;

    private Gateway gateway;
    private HttpFront front;
    private final List<LineHost> stdioHosts = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (LineHost host : stdioHosts) {
            host.close();
        }
        if (front != null) {
            front.close();
        }
        gateway.close();
    }

    @Test
    void hostsOnTwoProfilesByPathSeeTheirOwnCataloguesAndCannotCallEachOthersToolsInBothEras() throws Exception {
        startHttp();
        for (boolean modern : List.of(false, true)) {
            HttpHost review = host(modern, profileUri("review"), "team-secret");
            HttpHost ops = host(modern, profileUri("ops"), "team-secret");
            assertSeparated(review, ops);
        }
        assertThat(executions("two", "echo")).as("review's host never ran ops' tool").isZero();
        assertThat(executions("one", "echo")).as("ops' host never ran review's tool").isZero();
    }

    @Test
    void hostsOnTwoProfilesByTokenSeeTheirOwnCataloguesAndCannotCallEachOthersToolsInBothEras() throws Exception {
        startHttp();
        for (boolean modern : List.of(false, true)) {
            HttpHost alice = host(modern, front.mcpUri(), "alice-secret");
            HttpHost bob = host(modern, front.mcpUri(), "bob-secret");
            assertSeparated(alice, bob);
        }
        assertThat(executions("two", "echo")).isZero();
        assertThat(executions("one", "echo")).isZero();
        HttpHost team = host(false, front.mcpUri(), "team-secret");
        assertThat(toolNames(team.request("tools/list", null).reply())).as("an unbound token on /mcp sees everything")
                .contains("one__echo", "one__touch", "two__echo");
    }

    @Test
    void aTokenBoundToAProfileIsRefusedOnAnotherProfilesPathAndAnUnknownProfileIsNotFound() throws Exception {
        startHttp();
        HttpResponse<String> crossed = post(profileUri("ops"), "alice-secret");
        assertThat(crossed.statusCode()).isEqualTo(403);
        assertThat(crossed.body()).contains("review");
        HttpResponse<String> own = post(profileUri("review"), "alice-secret");
        assertThat(own.statusCode()).isEqualTo(200);
        HttpResponse<String> unknown = post(profileUri("nope"), "team-secret");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("no profile \\\"nope\\\"");
    }

    @Test
    void aLegacySessionBelongsToTheProfileThatCreatedIt() throws Exception {
        startHttp();
        HttpHost review = host(false, profileUri("review"), "team-secret");
        HttpHost borrowed = HttpHost.legacy(profileUri("ops")).headers(Map.of("Authorization", "Bearer team-secret"));
        borrowed.sessionId(review.sessionId());
        assertThat(borrowed.request("tools/list", null).status()).isEqualTo(404);
    }

    @Test
    void stdioHostsOnTwoProfilesSeeTheirOwnCataloguesInBothEras() throws Exception {
        gateway = Gateway.start(config(REVIEW), TestGateways.settings(), Map.of());
        awaitUp();
        LineHost review = stdioHost("review");
        LineHost ops = stdioHost("ops");
        for (LineHost host : List.of(review, ops)) {
            initialize(host);
        }
        for (boolean modern : List.of(false, true)) {
            assertThat(toolNames(review.request("tools/list", era(modern, Json.object()))))
                    .contains("one__echo", "one__add").doesNotContain("one__touch", "one__sleep", "two__echo");
            assertThat(toolNames(ops.request("tools/list", era(modern, Json.object()))))
                    .contains("two__echo", "two__touch").noneMatch(name -> name.startsWith("one__"));
            JsonNode refused = review.request("tools/call", era(modern, call("two__echo")));
            JsonNode neverListed = review.request("tools/call", era(modern, call("two__no_such_tool")));
            assertThat(refused.path("error").path("message").asString()).isEqualTo("Unknown tool: two__echo");
            assertThat(refused.path("error").path("code").asInt()).isEqualTo(neverListed.path("error").path("code").asInt());
            assertThat(ops.request("tools/call", era(modern, call("one__echo"))).path("error").path("message").asString())
                    .isEqualTo("Unknown tool: one__echo");
            assertThat(review.request("tools/call", era(modern, call("one__echo"))).path("result").path("content")
                    .path(0).path("text").asString()).isEqualTo("Echo: hi");
        }
        assertThat(executions("two", "echo")).isZero();
        assertThat(executions("one", "echo")).isEqualTo(2);
    }

    @Test
    void aProfileEditReachesItsHostsLiveAsListChanged() throws Exception {
        gateway = Gateway.start(config(REVIEW), TestGateways.settings(), Map.of());
        awaitUp();
        LineHost review = stdioHost("review");
        initialize(review);
        assertThat(toolNames(review.request("tools/list", null))).contains("one__echo", "one__add");

        Profile narrowed = new Profile("review", List.of("one"), new CatalogueFilter(
                new NameFilter(List.of("one__add"), List.of()), NameFilter.ALL, NameFilter.ALL), Profile.Search.OFF);
        gateway.reload(config(narrowed));

        await().atMost(Duration.ofSeconds(10)).until(() -> {
            JsonNode note = review.nextNotification(Duration.ofSeconds(1));
            return note != null && "notifications/tools/list_changed".equals(note.path("method").asString());
        });
        assertThat(toolNames(review.request("tools/list", null))).containsExactly("one__add");
        assertThat(review.request("tools/call", call("one__echo")).path("error").path("message").asString())
                .isEqualTo("Unknown tool: one__echo");

        gateway.reload(new GatewayConfig(Optional.empty(), gateway.config().upstreams(), TOKENS, Optional.empty(),
                Limits.DEFAULTS, Optional.empty(), new Profiles(Profile.WHOLE, Map.of("ops", OPS))));
        assertThat(review.request("tools/list", null).path("error").path("message").asString())
                .contains("profile \"review\" is no longer configured");
    }

    @Test
    void aResourceOutsideTheProfileIsNeitherListedReadableNorSubscribable() throws Exception {
        Profile noResources = new Profile("review", List.of("one"), new CatalogueFilter(NameFilter.ALL, NameFilter.ALL,
                new NameFilter(List.of(), List.of("fake://*"))), Profile.Search.OFF);
        gateway = Gateway.start(new GatewayConfig(Optional.empty(), List.of(TestGateways.fake("one", "--resources")),
                List.of(), Optional.empty(), Limits.DEFAULTS, Optional.empty(),
                new Profiles(Profile.WHOLE, Map.of("review", noResources))), TestGateways.settings(), Map.of());
        await().atMost(Duration.ofSeconds(30)).until(() -> gateway.catalogue().resource("fake://note").isPresent());
        LineHost whole = stdioHost(null);
        LineHost review = stdioHost("review");
        initialize(whole);
        initialize(review);
        ObjectNode note = Json.object().put("uri", "fake://note");

        assertThat(whole.request("resources/list", null).path("result").path("resources")).hasSize(1);
        assertThat(review.request("resources/list", null).path("result").path("resources")).isEmpty();
        assertThat(review.request("resources/read", note).path("error").path("message").asString())
                .isEqualTo("Resource not found: fake://note");
        assertThat(review.request("resources/subscribe", note).path("error").path("message").asString())
                .isEqualTo("Resource not found: fake://note");
        assertThat(whole.request("resources/subscribe", note).has("result")).isTrue();
    }

    @Test
    void statusShowsTheProfiles() throws Exception {
        startHttp();
        HttpResponse<String> status = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        front.mcpUri().resolve("/status")).header("Authorization", "Bearer team-secret").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode profiles = Json.parse(status.body()).path("profiles");
        assertThat(profiles).hasSize(2);
        assertThat(profiles.path(0).path("name").asString()).isEqualTo("ops");
        assertThat(profiles.path(1).path("name").asString()).isEqualTo("review");
        assertThat(profiles.path(1).path("path").asString()).isEqualTo("/mcp/review");
        assertThat(profiles.path(1).path("servers").path(0).asString()).isEqualTo("one");
        assertThat(profiles.path(1).path("tools").asInt()).isEqualTo(toolNames(
                host(false, profileUri("review"), "team-secret").request("tools/list", null).reply()).size());
    }

    private void assertSeparated(HttpHost review, HttpHost ops) throws Exception {
        assertThat(toolNames(review.request("tools/list", null).reply()))
                .contains("one__echo", "one__add").doesNotContain("one__touch", "one__sleep", "two__echo");
        assertThat(toolNames(ops.request("tools/list", null).reply()))
                .contains("two__echo", "two__touch").noneMatch(name -> name.startsWith("one__"));
        HttpHost.Exchange refused = review.call("two__echo", Json.object().put("text", "hi"));
        HttpHost.Exchange neverListed = review.call("two__no_such_tool", Json.object());
        assertThat(refused.reply().path("error").path("message").asString()).as(refused.body())
                .isEqualTo("Unknown tool: two__echo");
        assertThat(refused.errorCode()).isEqualTo(neverListed.errorCode());
        assertThat(review.call("one__touch", Json.object()).reply().path("error").path("message").asString())
                .isEqualTo("Unknown tool: one__touch");
        assertThat(ops.call("one__echo", Json.object().put("text", "hi")).reply().path("error").path("message").asString())
                .isEqualTo("Unknown tool: one__echo");
        assertThat(review.call("one__add", Json.object().put("a", 1).put("b", 2)).text()).isEqualTo("3");
        assertThat(ops.call("two__add", Json.object().put("a", 2).put("b", 2)).text()).isEqualTo("4");
    }

    private HttpHost host(boolean modern, URI uri, String token) throws Exception {
        HttpHost host = (modern ? HttpHost.modern(uri) : HttpHost.legacy(uri))
                .headers(Map.of("Authorization", "Bearer " + token));
        if (!modern) {
            host.initialize();
        }
        return host;
    }

    private HttpResponse<String> post(URI uri, String token) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/list")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI profileUri(String name) {
        return front.mcpUri().resolve("/mcp/" + name);
    }

    private void startHttp() throws Exception {
        gateway = Gateway.start(config(REVIEW), TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0),
                new HttpSecurity(TOKENS, Optional.empty(), false), Duration.ofMillis(200));
        awaitUp();
    }

    private void awaitUp() {
        await().atMost(Duration.ofSeconds(30)).until(() -> gateway.catalogue().tool("one__echo").isPresent()
                && gateway.catalogue().tool("two__echo").isPresent());
    }

    private GatewayConfig config(Profile review) {
        List<UpstreamConfig> upstreams = List.of(fake("one"), fake("two"));
        return new GatewayConfig(Optional.empty(), upstreams, TOKENS, Optional.empty(), Limits.DEFAULTS, Optional.empty(),
                new Profiles(Profile.WHOLE, Map.of("review", review, "ops", OPS)));
    }

    private UpstreamConfig fake(String name) {
        return TestGateways.fake(name, "--ledger", dir.resolve(name + ".ledger").toString());
    }

    private LineHost stdioHost(String profile) throws IOException {
        LineHost host = LineHost.ofStdioFront(gateway, profile);
        stdioHosts.add(host);
        return host;
    }

    private static void initialize(LineHost host) throws Exception {
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "test-host").put("version", "1");
        host.request("initialize", init);
        host.notify("notifications/initialized", null);
    }

    private static ObjectNode call(String tool) {
        ObjectNode params = Json.object().put("name", tool);
        params.putObject("arguments").put("text", "hi");
        return params;
    }

    private static ObjectNode era(boolean modern, ObjectNode params) {
        if (modern) {
            params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                    .putObject("io.modelcontextprotocol/clientCapabilities");
        }
        return params;
    }

    /** How often upstream {@code name} ran {@code tool}: its ledger has a line per execution. */
    private long executions(String name, String tool) throws IOException {
        Path ledger = dir.resolve(name + ".ledger");
        return Files.exists(ledger) ? Files.readAllLines(ledger).stream().filter(tool::equals).count() : 0;
    }

    static List<String> toolNames(JsonNode reply) {
        List<String> names = new ArrayList<>();
        reply.path("result").path("tools").forEach(tool -> names.add(tool.path("name").asString()));
        return names;
    }
}

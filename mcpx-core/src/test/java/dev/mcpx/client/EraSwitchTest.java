package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * An upstream redeployed in the other era on the same address is picked up by the same client
 * with one re-probe; a server that keeps flipping gets a clear error, never a loop.
 */
class EraSwitchTest {

    private final List<ClientEvent> events = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> closing = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : closing.reversed()) {
            c.close();
        }
    }

    private <T extends AutoCloseable> T closeLater(T resource) {
        closing.add(resource);
        return resource;
    }

    private McpClient connect(URI url) {
        return connect(url, EraCache.create(Duration.ofMinutes(5)));
    }

    private McpClient connect(URI url, EraCache cache) {
        return closeLater(McpClient.builder(new UpstreamEndpoint.Http(url, Map.of(), UpstreamEndpoint.HttpKind.AUTO))
                .name("switching").eraCache(cache).events(events::add)
                .requestTimeout(Duration.ofSeconds(20)).build().connect());
    }

    private static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asString();
    }

    private static long toolCalls(LegacyHttpUpstream upstream, String tool) {
        return upstream.requests().stream().filter(RecordedRequest::isRpcRequest)
                .filter(r -> "tools/call".equals(r.rpcMethod()))
                .filter(r -> r.body().contains("\"" + tool + "\"")).count();
    }

    private List<ClientEvent.EraChanged> eraChanges() {
        return events.stream().filter(ClientEvent.EraChanged.class::isInstance).map(ClientEvent.EraChanged.class::cast).toList();
    }

    @Test
    void aLegacyUpstreamRedeployedAsModernIsPickedUpWithOneReprobe() {
        LegacyHttpUpstream legacy = closeLater(LegacyHttpUpstream.started());
        McpClient client = connect(legacy.url());
        assertThat(client.server().era()).isEqualTo(Era.LEGACY);
        assertThat(text(client.callTool("echo", Json.object().put("text", "before"), RequestOptions.defaults()))).isEqualTo("before");

        legacy.close();
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.startOn(legacy.port()));

        JsonNode result = client.callTool("destructive_tool", Json.object(), RequestOptions.defaults());

        assertThat(text(result)).isEqualTo("destructive_tool execution 1");
        assertThat(modern.executions("destructive_tool")).as("refused unexecuted, then sent once more").isEqualTo(1);
        assertThat(client.server().era()).isEqualTo(Era.MODERN);
        assertThat(client.server().protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
        assertThat(client.counters().snapshot().eraChanges()).isEqualTo(1);
        assertThat(eraChanges()).containsExactly(new ClientEvent.EraChanged(Era.LEGACY, Era.MODERN, ProtocolVersion.V2026_07_28));
        assertThat(modern.calls("server/discover")).as("one re-probe").isEqualTo(1);

        int violations = modern.violations().size();
        assertThat(client.listTools()).extracting(t -> t.name()).contains("read_only_tool", "destructive_tool");
        assertThat(text(client.callTool("read_only_tool", Json.object(), RequestOptions.defaults()))).contains("execution 1");
        assertThat(modern.violations()).as("no session, GET or DELETE once modern").hasSize(violations);
        assertThat(modern.headerMismatches()).isZero();
        assertThat(client.counters().snapshot().eraChanges()).isEqualTo(1);
    }

    @Test
    void aModernUpstreamRedeployedAsLegacyIsPickedUpAndTheDestructiveCallInFlightRanAtMostOnce() throws Exception {
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.start().delay("destructive_tool", Duration.ofSeconds(3)));
        McpClient client = connect(modern.url());
        assertThat(client.server().era()).isEqualTo(Era.MODERN);
        CompletableFuture<Object> inFlight = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                inFlight.complete(client.callTool("destructive_tool", Json.object(), RequestOptions.defaults()));
            } catch (McpException e) {
                inFlight.complete(e);
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> modern.requestIds("destructive_tool").size() == 1);

        modern.close();
        LegacyHttpUpstream legacy = closeLater(LegacyHttpUpstream.startedOn(modern.port()));

        Object outcome = inFlight.get(30, TimeUnit.SECONDS);
        assertThat(outcome).as("a destructive tool whose stream broke is not re-issued")
                .isInstanceOf(StreamLostException.class);
        assertThat(modern.executions("destructive_tool") + toolCalls(legacy, "destructive_tool"))
                .as("ran at most once").isLessThanOrEqualTo(1);

        assertThat(text(client.callTool("echo", Json.object().put("text", "after"), RequestOptions.defaults()))).isEqualTo("after");
        assertThat(client.server().era()).isEqualTo(Era.LEGACY);
        assertThat(client.server().protocolVersion()).isEqualTo(ProtocolVersion.V2025_11_25);
        assertThat(legacy.initializeCount()).isEqualTo(1);
        assertThat(legacy.executions("echo")).isEqualTo(1);
        assertThat(client.counters().snapshot().eraChanges()).isEqualTo(1);
        assertThat(eraChanges()).containsExactly(new ClientEvent.EraChanged(Era.MODERN, Era.LEGACY, ProtocolVersion.V2025_11_25));

        assertThat(text(client.callTool("increment", Json.object(), RequestOptions.defaults()))).isEqualTo("1");
        assertThat(legacy.executions("increment")).isEqualTo(1);
        assertThat(client.counters().snapshot().eraChanges()).isEqualTo(1);
    }

    @Test
    void concurrentCallsAtTheSwitchShareOneReprobe() throws Exception {
        LegacyHttpUpstream legacy = closeLater(LegacyHttpUpstream.started());
        McpClient client = connect(legacy.url());
        legacy.close();
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.startOn(legacy.port()));

        List<CompletableFuture<JsonNode>> calls = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> client.request("resources/list", null),
                    java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()));
        }
        for (CompletableFuture<JsonNode> call : calls) {
            assertThat(call.get(60, TimeUnit.SECONDS).path("resources").isArray()).isTrue();
        }
        assertThat(modern.calls("server/discover")).as("one re-probe for all of them").isEqualTo(1);
        assertThat(client.counters().snapshot().eraChanges()).isEqualTo(1);
        assertThat(modern.calls("resources/list")).isEqualTo(6);
    }

    /**
     * Calls that keep coming while the re-probe runs: one made after the probe attached the new
     * transport but before it described the server was made for the old era, and must be made
     * again for the new one, not sent as it was.
     */
    @Test
    void callsMadeWhileTheSwitchIsUnderWayAreAnsweredInTheNewEra() throws Exception {
        LegacyHttpUpstream legacy = closeLater(LegacyHttpUpstream.started());
        McpClient client = connect(legacy.url());
        legacy.close();
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.startOn(legacy.port()));

        int calls = 300;
        List<CompletableFuture<JsonNode>> answers = new java.util.ArrayList<>();
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            // started one after another, so that some are made while the re-probe is under way
            for (int i = 0; i < calls; i++) {
                answers.add(CompletableFuture.supplyAsync(() -> client.request("resources/list", null), threads));
            }
            for (CompletableFuture<JsonNode> answer : answers) {
                assertThat(answer.get(60, TimeUnit.SECONDS).path("resources").isArray()).isTrue();
            }
        }
        assertThat(modern.calls("server/discover")).as("one re-probe for all of them").isEqualTo(1);
        assertThat(modern.calls("resources/list")).isEqualTo(calls);
        assertThat(client.counters().snapshot().eraChanges()).isEqualTo(1);
    }

    @Test
    void aSecondClientOfTheCacheFollowsTheFirstsReprobeWithoutProbing() {
        EraCache shared = EraCache.create(Duration.ofMinutes(5));
        LegacyHttpUpstream legacy = closeLater(LegacyHttpUpstream.started());
        McpClient first = connect(legacy.url(), shared);
        McpClient second = connect(legacy.url(), shared);
        legacy.close();
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.startOn(legacy.port()));

        assertThat(first.request("resources/list", null).path("resources").isArray()).isTrue();
        assertThat(second.request("resources/list", null).path("resources").isArray()).isTrue();

        assertThat(modern.calls("server/discover")).isEqualTo(1);
        assertThat(first.counters().snapshot().eraChanges()).isEqualTo(1);
        assertThat(second.counters().snapshot().eraChanges()).isEqualTo(1);
        assertThat(second.server()).isEqualTo(first.server());
    }

    @Test
    void aRequestInFlightOnAReplacedTransportFailsAtOnceAndADestructiveToolIsNotRepeated() throws Exception {
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.start().delay("destructive_tool", Duration.ofSeconds(3)));
        LegacyHttpUpstream legacy = closeLater(LegacyHttpUpstream.started());
        // the probe, the tool list and the destructive call reach the modern server; then it is legacy
        EraFlipper flipper = closeLater(new EraFlipper(modern.url(), legacy.url(), (n, body) -> n < 3));
        McpClient client = connectPatiently(flipper.url());
        client.listTools();
        CompletableFuture<Object> inFlight = callInBackground(client, "destructive_tool");
        await().atMost(Duration.ofSeconds(20)).until(() -> modern.requestIds("destructive_tool").size() == 1);

        assertThat(client.request("resources/list", null).path("resources").isArray()).isTrue();
        assertThat(client.server().era()).isEqualTo(Era.LEGACY);

        assertThat(inFlight.get(60, TimeUnit.SECONDS)).as("failed with the replaced transport, not left to time out")
                .isInstanceOf(StreamLostException.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> modern.executions("destructive_tool") == 1);
        assertThat(modern.requestIds("destructive_tool")).as("not re-issued").hasSize(1);
        assertThat(toolCalls(legacy, "destructive_tool")).isZero();
        assertThat(client.counters().snapshot().eraChanges()).isEqualTo(1);
    }

    @Test
    void aFalseAlarmKeepsTheConnectionAndTheCallInFlightGetsItsAnswer() throws Exception {
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.start().delay("destructive_tool", Duration.ofSeconds(1)));
        McpClient client = connectPatiently(modern.url());
        client.listTools();
        // the re-probe is slower than the call in flight, whose answer arrives while the probe runs
        modern.delay("server/discover", Duration.ofSeconds(3));
        CompletableFuture<Object> inFlight = callInBackground(client, "destructive_tool");
        await().atMost(Duration.ofSeconds(20)).until(() -> modern.requestIds("destructive_tool").size() == 1);
        modern.answerNextWith(400, "application/json",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,\"message\":\"Bad Request: No valid session ID provided\"}}");

        assertThatThrownBy(() -> client.request("resources/list", null)).hasMessageContaining("No valid session ID");

        assertThat(inFlight.get(60, TimeUnit.SECONDS)).isInstanceOf(JsonNode.class);
        assertThat(text((JsonNode) inFlight.get())).isEqualTo("destructive_tool execution 1");
        assertThat(modern.calls("server/discover")).as("the connect, and one re-probe").isEqualTo(2);
        assertThat(client.counters().snapshot().eraChanges()).isZero();
        assertThat(client.request("resources/list", null).path("resources").isArray()).isTrue();
    }

    @Test
    void aToolErrorThatMentionsASessionIsNotTakenForALegacyServer() {
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.start());
        McpClient client = connect(modern.url());
        modern.answerNextWith(500, "application/json",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":\"browser session not initialized\"}}");

        assertThatThrownBy(() -> client.request("resources/list", null)).hasMessageContaining("browser session");
        assertThat(modern.calls("server/discover")).as("no re-probe").isEqualTo(1);
    }

    private McpClient connectPatiently(URI url) {
        return closeLater(McpClient.builder(new UpstreamEndpoint.Http(url, Map.of(), UpstreamEndpoint.HttpKind.AUTO))
                .name("switching").eraCache(EraCache.create(Duration.ofMinutes(5))).events(events::add)
                .requestTimeout(Duration.ofMinutes(5)).build().connect());
    }

    private static CompletableFuture<Object> callInBackground(McpClient client, String tool) {
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                outcome.complete(client.callTool(tool, Json.object(), RequestOptions.defaults()));
            } catch (McpException e) {
                outcome.complete(e);
            }
        });
        return outcome;
    }

    @Test
    void aServerThatFlipsEraOnEveryRequestNeverMakesTheClientLoop() throws Exception {
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.start());
        LegacyHttpUpstream legacy = closeLater(LegacyHttpUpstream.started());
        EraFlipper flipper = closeLater(new EraFlipper(modern.url(), legacy.url(), (n, body) -> n % 2 == 0));
        McpClient client = connect(flipper.url());
        assertThat(client.server().era()).isEqualTo(Era.MODERN);

        assertThatThrownBy(() -> client.request("resources/list", null))
                .as("the legacy server's refusal, after a re-probe found the endpoint modern")
                .isInstanceOf(McpException.class).hasMessageContaining("Mcp-Session-Id");
        assertThat(flipper.posts()).as("one attempt and one re-probe").isEqualTo(3);
        assertThatThrownBy(() -> client.request("resources/list", null))
                .as("a second re-probe with nothing answered since the first: the condition, no probe")
                .isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("keeps changing era")
                .hasCauseInstanceOf(McpException.class);
        assertThat(flipper.posts()).isEqualTo(4);
        for (int call = 0; call < 5; call++) {
            assertThatThrownBy(() -> client.callTool("read_only_tool", Json.object(), RequestOptions.defaults()))
                    .isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("was not sent");
        }
        assertThat(flipper.posts()).as("refused at once while the condition holds").isEqualTo(4);
        assertThat(client.degradedReason()).isPresent();
        assertThat(client.counters().snapshot().eraChanges()).isZero();
        assertThat(modern.executions("read_only_tool")).isZero();
        assertThat(client.pendingCount()).isZero();
    }

    @Test
    void aServerThatFlipsBackRightAfterTheSwitchFailsThatRequestClearlyAndTheCallAfterOneBackoffStepSwitchesAgain() throws Exception {
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.start());
        LegacyHttpUpstream legacy = closeLater(LegacyHttpUpstream.started());
        AtomicBoolean initialized = new AtomicBoolean();
        // modern for the first probe; legacy until the client has initialized there; modern ever after
        EraFlipper flipper = closeLater(new EraFlipper(modern.url(), legacy.url(), (n, body) -> {
            String method = Json.parse(body).path("method").asString("");
            if (method.equals("initialize")) {
                initialized.set(true);
                return false;
            }
            return n == 0 || initialized.get() && !method.equals("notifications/initialized");
        }));
        McpClient client = connect(flipper.url());

        assertThatThrownBy(() -> client.callTool("destructive_tool", Json.object(), RequestOptions.defaults()))
                .as("the tool's lookup (tools/list) met the flip back right after the switch: the condition")
                .isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("keeps changing era");
        assertThat(client.counters().snapshot().eraChanges()).isEqualTo(1);
        assertThat(modern.executions("destructive_tool")).isZero();
        int posts = flipper.posts();
        assertThatThrownBy(() -> client.callTool("destructive_tool", Json.object(), RequestOptions.defaults()))
                .as("an era that flips back is a condition: refused at once, not probed again")
                .isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("was not sent");
        assertThat(flipper.posts()).isEqualTo(posts);
        assertThat(client.degradedReason()).isPresent();

        // after one backoff step the next call is the probe: it switches again and goes through
        JsonNode result = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
            try {
                return client.callTool("destructive_tool", Json.object(), RequestOptions.defaults());
            } catch (UpstreamUnavailableException refused) {
                return null;
            }
        }, java.util.Objects::nonNull);

        assertThat(text(result)).isEqualTo("destructive_tool execution 1");
        assertThat(client.degradedReason()).isEmpty();
        assertThat(client.server().era()).isEqualTo(Era.MODERN);
        assertThat(client.counters().snapshot().eraChanges()).isEqualTo(2);
        assertThat(eraChanges()).extracting(ClientEvent.EraChanged::to).containsExactly(Era.LEGACY, Era.MODERN);
    }

    @Test
    void aFailedReprobeLeavesTheConnectionAsItWasAndSurfaces() {
        ModernHttpUpstream modern = closeLater(ModernHttpUpstream.start());
        McpClient client = connect(modern.url());
        ServerDescription before = client.server();
        modern.answerNextWith(400, "application/json",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,\"message\":\"Bad Request: No valid session ID provided\"}}");
        modern.answerNextWith(503, "text/plain", "down for maintenance");

        assertThatThrownBy(() -> client.request("resources/list", null))
                .as("the failure of the re-probe: the legacy initialize refused by the modern server")
                .isInstanceOf(McpException.class).hasMessageContaining("_meta");
        assertThat(client.server()).isEqualTo(before);
        assertThat(client.counters().snapshot().eraChanges()).isZero();
        assertThat(text(client.callTool("read_only_tool", Json.object(), RequestOptions.defaults()))).contains("execution 1");
    }
}

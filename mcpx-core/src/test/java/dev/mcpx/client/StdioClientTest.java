package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.ToolDescriptor;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The client against a real child process on stdio. */
class StdioClientTest {

    private McpClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
    }

    private McpClient connect(String... flags) {
        return connect(Duration.ofSeconds(2), flags);
    }

    private McpClient connect(Duration probeTimeout, String... flags) {
        List<String> command = StdioFakeServer.command(flags);
        UpstreamEndpoint.Stdio endpoint = new UpstreamEndpoint.Stdio(command.getFirst(),
                command.subList(1, command.size()), Map.of(), null, false);
        client = McpClient.builder(endpoint).name("fake").probeTimeout(probeTimeout)
                .requestTimeout(Duration.ofSeconds(10)).build().connect();
        return client;
    }

    private static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asString();
    }

    @Test
    void legacyServerIsInitializedAfterTheDiscoverProbeFails() {
        connect("--era", "legacy");

        assertThat(client.server().era()).isEqualTo(Era.LEGACY);
        assertThat(client.server().protocolVersion()).isEqualTo(ProtocolVersion.V2025_11_25);
        assertThat(client.server().name()).isEqualTo("stdio-fake");
        assertThat(client.listTools()).extracting(ToolDescriptor::name).contains("echo", "add");
        assertThat(text(client.callTool("echo", Json.object().put("text", "hi"), RequestOptions.defaults()))).isEqualTo("Echo: hi");
    }

    @Test
    void modernServerIsUsedWithoutInitialize() {
        connect("--era", "modern");

        assertThat(client.server().era()).isEqualTo(Era.MODERN);
        assertThat(client.server().protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
        assertThat(text(client.callTool("add", Json.object().put("a", 2).put("b", 3), RequestOptions.defaults()))).isEqualTo("5");
    }

    @Test
    void aModernServerTooSlowForTheProbeIsStillFoundModernWhenItRefusesInitialize() {
        connect(Duration.ofMillis(100), "--era", "modern", "--start-delay", "1500");

        assertThat(client.server().era()).isEqualTo(Era.MODERN);
        assertThat(text(client.callTool("echo", Json.object().put("text", "late"), RequestOptions.defaults()))).isEqualTo("Echo: late");
        assertThat(client.pendingCount()).isZero();
    }

    @Test
    void aServerThatIgnoresTheProbeIsTakenForLegacyAfterTheProbeTimeout() {
        connect("--era", "legacy", "--silent-probe");

        assertThat(client.server().era()).isEqualTo(Era.LEGACY);
        assertThat(client.pendingCount()).isZero();
    }

    @Test
    void garbageLinesAreDroppedAndTheConnectionLivesOn() {
        connect("--era", "legacy", "--garbage");

        for (int i = 0; i < 3; i++) {
            assertThat(text(client.callTool("echo", Json.object().put("text", "n" + i), RequestOptions.defaults()))).isEqualTo("Echo: n" + i);
        }
    }

    @Test
    void aChildThatDiesMidRequestFailsEveryPendingRequestAtOnceSayingWhy() throws Exception {
        connect("--era", "legacy", "--stderr", "booting fake");
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<JsonNode> slow = threads.submit(() -> client.callTool("sleep", Json.object().put("ms", 30_000), RequestOptions.defaults()));
            await().until(() -> client.pendingCount() == 1);
            long started = System.nanoTime();

            assertThatThrownBy(() -> client.callTool("die", Json.object().put("code", 7), RequestOptions.defaults()))
                    .isInstanceOf(UpstreamUnavailableException.class)
                    .hasMessageContaining("exited with code 7")
                    .hasMessageContaining("fake server dying");
            assertThatThrownBy(slow::get).cause().isInstanceOf(UpstreamUnavailableException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(8));
        }
        assertThat(client.pendingCount()).isZero();
        assertThat(client.isOpen()).isFalse();
        assertThatThrownBy(() -> client.listTools()).isInstanceOf(UpstreamUnavailableException.class);
    }

    @Test
    void aTimeoutLeavesNoPendingEntryAndTheNextCallWorks() {
        connect("--era", "legacy");

        assertThatThrownBy(() -> client.callTool("sleep", Json.object().put("ms", 5_000),
                RequestOptions.defaults().withTimeout(Duration.ofMillis(200))))
                .isInstanceOf(RequestTimeoutException.class);
        assertThat(client.pendingCount()).isZero();
        assertThat(text(client.callTool("echo", Json.object().put("text", "after"), RequestOptions.defaults()))).isEqualTo("Echo: after");
    }

    @Test
    void cancellationEndsTheWaitAndLeavesNoPendingEntry() throws Exception {
        connect("--era", "legacy");
        Cancellation cancellation = new Cancellation();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<JsonNode> call = threads.submit(() -> client.callTool("sleep", Json.object().put("ms", 10_000),
                    RequestOptions.defaults().withCancellation(cancellation)));
            await().until(() -> client.pendingCount() == 1);
            cancellation.cancel("host went away");

            assertThatThrownBy(call::get).cause().isInstanceOf(RequestCancelledException.class).hasMessageContaining("host went away");
        }
        assertThat(client.pendingCount()).isZero();
    }

    @Test
    void progressReachesTheCallerOfThatRequest() {
        connect("--era", "legacy");
        List<ObjectNode> progress = new CopyOnWriteArrayList<>();

        JsonNode result = client.callTool("progress", Json.object().put("steps", 3),
                RequestOptions.defaults().withProgress(progress::add));

        assertThat(text(result)).isEqualTo("done in 3 steps");
        assertThat(progress).extracting(p -> p.path("progress").asInt()).containsExactly(1, 2, 3);
    }

    @Test
    void concurrentCallsEachGetTheirOwnAnswer() throws Exception {
        connect("--era", "modern");
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<String>> calls = new java.util.ArrayList<>();
            for (int i = 0; i < 50; i++) {
                int n = i;
                calls.add(threads.submit(() -> text(client.callTool("add", Json.object().put("a", n).put("b", 1000), RequestOptions.defaults()))));
            }
            for (int i = 0; i < 50; i++) {
                assertThat(calls.get(i).get()).isEqualTo(Integer.toString(i + 1000));
            }
        }
        assertThat(client.pendingCount()).isZero();
    }

    @Test
    void aModernListChangeIsActedOnOnlyWhenItNamesTheListenNowOpen() {
        List<ClientEvent> events = new CopyOnWriteArrayList<>();
        List<String> command = StdioFakeServer.command("--era", "modern");
        client = McpClient.builder(new UpstreamEndpoint.Stdio(command.getFirst(), command.subList(1, command.size()), Map.of(),
                        null, false)).name("fake").requestTimeout(Duration.ofSeconds(10)).listenForChanges(true).events(events::add).build().connect();
        await().until(() -> stdin().path("listens").asInt() == 1);
        assertThat(client.listTools()).extracting(ToolDescriptor::name).doesNotContain("stale", "fresh");

        client.callTool("add_tool", Json.object().put("name", "stale").put("subscriptionId", "a-listen-long-gone"),
                RequestOptions.defaults());
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                .until(() -> !events.contains(new ClientEvent.ListChanged(CatalogueKind.TOOLS)));
        assertThat(client.listTools()).extracting(ToolDescriptor::name).doesNotContain("stale");

        client.callTool("add_tool", Json.object().put("name", "fresh"), RequestOptions.defaults());
        await().until(() -> events.contains(new ClientEvent.ListChanged(CatalogueKind.TOOLS)));
        assertThat(client.listTools()).extracting(ToolDescriptor::name).contains("stale", "fresh");
    }

    /** What the fake read on its stdin: lines that were no JSON-RPC message, responses, cancellations. */
    private JsonNode stdin() {
        return Json.parse(text(client.callTool("stdin", Json.object(), RequestOptions.defaults())));
    }

    @ParameterizedTest
    @ValueSource(strings = {"legacy", "modern"})
    void everyLineTheClientWritesIsOneJsonRpcMessage(String era) throws Exception {
        connect("--era", era);
        String text = "two\nlines\r\nand ünïcödé ✓ 😀";
        assertThat(text(client.callTool("echo", Json.object().put("text", text), RequestOptions.defaults()))).isEqualTo("Echo: " + text);
        client.callTool("progress", Json.object().put("steps", 2), RequestOptions.defaults().withProgress(p -> { }));
        Cancellation cancellation = new Cancellation();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<JsonNode> call = threads.submit(() -> client.callTool("sleep", Json.object().put("ms", 10_000),
                    RequestOptions.defaults().withCancellation(cancellation)));
            await().until(() -> client.pendingCount() == 1);
            cancellation.cancel("enough");
            assertThatThrownBy(call::get).cause().isInstanceOf(RequestCancelledException.class);
        }
        client.listTools();
        assertThat(stdin().path("invalid").asLong()).isZero();
    }

    @Test
    void aLegacyClientAnswersTheServersRequest() {
        connect("--era", "legacy");
        client.callTool("ping_client", Json.object(), RequestOptions.defaults());
        await().atMost(Duration.ofSeconds(10)).until(() -> stdin().path("responses").asLong() == 1);
    }

    @Test
    void aModernClientWritesNoResponsesEvenToARequestFromTheServer() {
        connect("--era", "modern");
        client.callTool("ping_client", Json.object(), RequestOptions.defaults());
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> stdin().path("responses").asLong() == 0);
        assertThat(text(client.callTool("echo", Json.object().put("text", "on"), RequestOptions.defaults()))).isEqualTo("Echo: on");
    }

    @Test
    void theFakeCountsWhatItIsAskedForButDidNotDeclare() {
        // the control for the gateway's StdioFrontTest#theGatewayAsksAnUpstreamOnlyForWhatItDeclared:
        // the library sends what its caller asks for, and the fake counts it
        connect("--era", "legacy");
        assertThatThrownBy(client::listPrompts).hasMessageContaining("Method not found");
        assertThat(stdin().path("undeclared").asLong()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"legacy", "modern"})
    void aCancellationIsANotificationNamingOnlyTheRequestStillUnderWay(String era) throws Exception {
        connect("--era", era);
        // a loaded machine can make the era probe time out, and its cancellation counts too: count from here
        JsonNode before = stdin();
        Cancellation finished = new Cancellation();
        client.callTool("echo", Json.object().put("text", "done"), RequestOptions.defaults().withCancellation(finished));
        // cancelling a call that was already answered sends nothing
        finished.cancel("too late");
        Cancellation cancellation = new Cancellation();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<JsonNode> call = threads.submit(() -> client.callTool("sleep", Json.object().put("ms", 10_000),
                    RequestOptions.defaults().withCancellation(cancellation)));
            await().until(() -> client.pendingCount() == 1);
            cancellation.cancel("user");
            assertThatThrownBy(call::get).cause().isInstanceOf(RequestCancelledException.class);
        }
        long unansweredBefore = before.path("cancelledUnanswered").asLong();
        await().atMost(Duration.ofSeconds(10)).until(() -> stdin().path("cancelledUnanswered").asLong() == unansweredBefore + 1);
        assertThat(stdin().path("cancelledOther").asLong()).isEqualTo(before.path("cancelledOther").asLong());
    }

    @ParameterizedTest
    @ValueSource(strings = {"legacy", "modern"})
    void aResponseThatArrivesAfterItsCancellationIsDroppedQuietly(String era) throws Exception {
        connect("--era", era);
        Cancellation cancellation = new Cancellation();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            // the fake answers its sleep whether cancelled or not: that answer comes after the cancellation
            Future<JsonNode> call = threads.submit(() -> client.callTool("sleep", Json.object().put("ms", 1_000),
                    RequestOptions.defaults().withCancellation(cancellation)));
            await().until(() -> client.pendingCount() == 1);
            cancellation.cancel("user");
            assertThatThrownBy(call::get).cause().isInstanceOf(RequestCancelledException.class);
        }
        // a longer sleep, started after the first, is answered after the late answer came in
        assertThat(text(client.callTool("sleep", Json.object().put("ms", 1_500), RequestOptions.defaults()))).isEqualTo("slept");
        assertThat(client.pendingCount()).isZero();
        assertThat(text(client.callTool("echo", Json.object().put("text", "after"), RequestOptions.defaults()))).isEqualTo("Echo: after");
    }

    @Test
    void anUnknownCommandIsAClearError() {
        UpstreamEndpoint.Stdio endpoint = UpstreamEndpoint.Stdio.of("/nonexistent/mcp-server");
        assertThatThrownBy(() -> McpClient.builder(endpoint).build().connect())
                .isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("could not start /nonexistent/mcp-server");
    }
}

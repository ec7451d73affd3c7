package dev.mcpx.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.client.Cancellation;
import dev.mcpx.client.McpClient;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Every example of docs/library.md, run against the testkit's fake upstreams. */
class LibraryExamplesTest {

    private final ModernHttpUpstream modern = ModernHttpUpstream.start();

    @AfterEach
    void stop() {
        modern.close();
    }

    @Test
    void connectListAndCallRunTheToolOnce() {
        try (McpClient client = LibraryExamples.connect(modern.url().toString())) {
            assertThat(client.server().era()).isEqualTo(Era.MODERN);

            JsonNode result = LibraryExamples.listAndCall(client);

            assertThat(result.path("content").get(0).path("text").asString()).isEqualTo("read_only_tool execution 1");
            assertThat(modern.executions("read_only_tool")).isEqualTo(1);
        }
    }

    @Test
    void connectFindsALegacyServerToo() {
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             McpClient client = LibraryExamples.connect(legacy.url().toString())) {
            assertThat(client.server().era()).isEqualTo(Era.LEGACY);
            assertThat(client.listTools()).extracting(tool -> tool.name()).contains("echo");
        }
    }

    @Test
    void connectStdioStartsTheServerAndCloseStopsIt() {
        List<String> command = StdioFakeServer.command();
        // under surefire the module path holds Jackson: the child needs it on its class path
        String classPath = Stream.of(System.getProperty("java.class.path"), System.getProperty("jdk.module.path"))
                .filter(path -> path != null && !path.isBlank()).collect(Collectors.joining(File.pathSeparator));
        command.set(2, classPath);
        McpClient client = LibraryExamples.connectStdio(command.getFirst(),
                command.subList(1, command.size()).toArray(String[]::new));
        long pid = client.pid().orElseThrow();

        assertThat(client.listTools()).isNotEmpty();
        client.close();

        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void optionsRunTheCallAndItsCancellationStopsIt() throws Exception {
        try (McpClient client = LibraryExamples.connect(modern.url().toString())) {
            assertThat(LibraryExamples.callWithOptions(client, new Cancellation(), progress -> { })
                    .path("content").get(0).path("text").asString()).isEqualTo("idempotent_tool execution 1");

            modern.delay("idempotent_tool", Duration.ofMinutes(2));
            Cancellation cancel = new Cancellation();
            CompletableFuture<JsonNode> call = CompletableFuture.supplyAsync(
                    () -> LibraryExamples.callWithOptions(client, cancel, progress -> { }));
            await().atMost(Duration.ofSeconds(30)).until(() -> modern.calls("tools/call") == 2);
            cancel.cancel("the user pressed stop");

            assertThatThrownBy(call::join).hasCauseInstanceOf(RequestCancelledException.class);
        }
    }

    @Test
    void subscriptionsDeliverListChangesAndResourceUpdates() {
        Queue<String> seen = new ConcurrentLinkedQueue<>();
        try (McpClient client = LibraryExamples.subscribe(modern.url().toString(), seen::add)) {
            modern.pushResourceUpdated("file:///docs/readme.md");
            modern.pushToolsListChanged();

            await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("updated file:///docs/readme.md")
                    && seen.contains("changed TOOLS"));
            assertThat(client.isOpen()).isTrue();
        }
    }

    @Test
    void recoveryReissuesWhatIsMarkedAlwaysAndNotWhatIsMarkedNever() {
        try (McpClient client = LibraryExamples.recovering(modern.url().toString())) {
            modern.breakStream("plain_tool", 1);
            modern.breakStream("destructive_tool", 1);

            assertThat(LibraryExamples.explain(client, "plain_tool")).contains("plain_tool execution 2");
            assertThat(LibraryExamples.explain(client, "destructive_tool")).startsWith("may have run: ");
            assertThat(modern.executions("plain_tool")).isEqualTo(2);
            assertThat(modern.executions("destructive_tool")).isEqualTo(1);
        }
    }

    @Test
    void explainTellsARefusalFromAnUnreachableServer() {
        try (McpClient client = LibraryExamples.connect(modern.url().toString())) {
            assertThat(LibraryExamples.explain(client, "no_such_tool")).startsWith("refused: ");
            modern.close();

            assertThat(LibraryExamples.explain(client, "read_only_tool")).startsWith("unavailable: ");
        }
    }
}

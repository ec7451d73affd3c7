package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.testkit.stdio.CommandLines;
import dev.mcpx.transport.stdio.EarlyChildren;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What {@code serve} reads and starts before picocli has its model, and what the command then takes. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EarlyServeTest {

    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        EarlyServe.config(null);
        EarlyChildren.stopUnclaimed();
    }

    private Path config(String seconds) throws IOException {
        return Files.writeString(dir.resolve("mcpx-" + seconds + ".json"), "{\"mcpServers\": {"
                + "\"on\": {\"command\": \"sleep\", \"args\": [\"" + seconds + "\"]},"
                + "\"off\": {\"command\": \"sleep\", \"args\": [\"" + seconds + "1\"], \"disabled\": true}}}");
    }

    private static void early(String... args) {
        EarlyServe.expect(args);
        EarlyServe.read(EarlyServe.prepare(args));
    }

    @Test
    void serveStartsItsEnabledStdioUpstreamsAndHandsTheCommandTheConfigItRead() throws Exception {
        Path file = config("611");
        early("serve", "--stdio", "--config", file.toString());
        List<ProcessHandle> started = sleeping("611");
        assertThat(started).hasSize(1);
        assertThat(sleeping("6111")).isEmpty();
        GatewayConfig taken = EarlyServe.config(file).orElseThrow();
        assertThat(taken.upstreams()).extracting(UpstreamConfig::name).containsExactlyInAnyOrder("on", "off");
        assertThat(EarlyServe.config(file)).as("taken once").isEmpty();
        EarlyChildren.stopUnclaimed();
        started.get(0).onExit().get(30, TimeUnit.SECONDS);
    }

    @Test
    void aCommandReadingAnotherFileReadsItItself() throws Exception {
        Path file = config("612");
        early("serve", "-c" + file);
        assertThat(sleeping("612")).hasSize(1);
        assertThat(EarlyServe.config(dir.resolve("other.json"))).isEmpty();
    }

    @Test
    void anHttpGatewayHasItsConfigReadEarlyButNoUpstreamStartedBeforeItsFront() throws Exception {
        Path file = config("616");
        early("serve", "--http", "127.0.0.1:0", "-c", file.toString());
        assertThat(EarlyServe.config(file)).isPresent();
        early("serve", "--http=127.0.0.1:0", "-c", file.toString());
        assertThat(EarlyServe.config(file)).isPresent();
        assertThat(sleeping("616")).isEmpty();
    }

    @Test
    void helpVersionAndOtherCommandsStartNothing() throws Exception {
        Path file = config("613");
        early("serve", "-c", file.toString(), "--help");
        assertThat(EarlyServe.config(file)).isEmpty();
        early("tools", "-c", file.toString());
        assertThat(EarlyServe.config(file)).isEmpty();
        assertThat(sleeping("613")).isEmpty();
    }

    @Test
    void aBrokenConfigStartsNothingAndLeavesTheErrorToTheCommand() throws Exception {
        Path file = Files.writeString(dir.resolve("broken.json"), "{\"mcpServers\": {\"on\": {\"command\": \"sleep\", \"args\": [\"614\"]}");
        early("serve", "-c", file.toString());
        assertThat(EarlyServe.config(file)).isEmpty();
        assertThat(sleeping("614")).isEmpty();
    }

    @Test
    void aCommandThatAsksBeforeTheReadHasBegunWaitsForItAndGetsItsConfig() throws Exception {
        Path file = config("615");
        String[] args = {"serve", "-c", file.toString()};
        EarlyServe.expect(args);
        EarlyServe.Prepared prepared = EarlyServe.prepare(args);
        // the command got to its config while the warm-up thread still waited for Logback
        CompletableFuture<Optional<GatewayConfig>> taken = new CompletableFuture<>();
        Thread command = Thread.ofPlatform().start(() -> taken.complete(EarlyServe.config(file)));
        await().atMost(Duration.ofSeconds(10)).until(() -> command.getState() == Thread.State.WAITING);
        EarlyServe.read(prepared);
        assertThat(taken.get(30, TimeUnit.SECONDS)).isPresent();
        assertThat(sleeping("615")).hasSize(1);
    }

    private static List<ProcessHandle> sleeping(String seconds) {
        return CommandLines.childrenRunning("sleep", seconds);
    }
}

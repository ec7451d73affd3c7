package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code serve --stdio} ends when its host closes stdin, and leaves no child behind, also when
 * the child keeps running after its own stdin closes (the fake's {@code --ignore-eof}; the
 * reference server everything does so once its simulated logging is on) and the host's SDK
 * sends SIGTERM while mcpx still waits for that child.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StdioShutdownTest {

    @TempDir
    Path dir;

    private Path config() throws Exception {
        ObjectNode root = Json.object();
        ObjectNode entry = root.putObject("mcpServers").putObject("lingers").put("command", TestGateways.java());
        ArrayNode args = entry.putArray("args");
        List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                StdioFakeServer.class.getName(), "--ignore-eof").forEach(args::add);
        return Files.writeString(dir.resolve("mcpx.json"), Json.write(root));
    }

    /** Starts serve with a host on its stdio, waits for the upstream, returns the child that lingers. */
    private static ProcessHandle upAndChild(ServeProcess serve, LineHost host) throws Exception {
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "closing-host").put("version", "1");
        host.request("initialize", init);
        host.notify("notifications/initialized", null);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(host.request("tools/list", null).path("result").path("tools").toString()).contains("lingers__echo"));
        return serve.process().descendants().filter(child -> commandLine(child).contains("--ignore-eof"))
                .findFirst().orElseThrow();
    }

    /** The whole command line: the JDK's {@code info().commandLine()} gives up on one as long as a test classpath. */
    private static String commandLine(ProcessHandle process) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"), StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return "";
        }
    }

    @Test
    void aHostsSigtermDuringTheWaitForALingeringChildStillReapsIt() throws Exception {
        ProcessHandle child = null;
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--stdio", "-c", config().toString())) {
            LineHost host = new LineHost(serve.process().getInputStream(), serve.process().getOutputStream());
            child = upAndChild(serve, host);
            host.close();
            await().atMost(Duration.ofSeconds(30)).until(() -> serve.stderr().contains("host closed stdin"));
            // what a host's SDK does when its server has not exited after closing stdin
            serve.process().destroy();
            assertThat(serve.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
            ProcessHandle lingering = child;
            await().atMost(Duration.ofSeconds(30)).until(() -> !lingering.isAlive());
        } finally {
            if (child != null && child.isAlive()) {
                child.destroyForcibly();
            }
        }
    }

    @Test
    void closingStdinAloneEndsServeWithExitZeroAndReapsALingeringChild() throws Exception {
        ProcessHandle child = null;
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--stdio", "-c", config().toString())) {
            LineHost host = new LineHost(serve.process().getInputStream(), serve.process().getOutputStream());
            child = upAndChild(serve, host);
            host.close();
            assertThat(serve.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(serve.process().exitValue()).isZero();
            assertThat(child.isAlive()).isFalse();
        } finally {
            if (child != null && child.isAlive()) {
                child.destroyForcibly();
            }
        }
    }
}

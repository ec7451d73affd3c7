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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mcpx serve} starts its stdio upstreams while its command line is still being read: the
 * gateway then talks to that child, never to a second one, and a serve that ends before its
 * gateway takes them over leaves none of them running.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EarlyUpstreamStartTest {

    @TempDir
    Path dir;

    private final String served = "early-" + UUID.randomUUID();
    private final String disabled = "off-" + UUID.randomUUID();

    /** A failed test leaves no fake running on the shared machine. */
    @AfterEach
    void killLeftovers() throws IOException {
        running(served).forEach(ProcessHandle::destroyForcibly);
        running(disabled).forEach(ProcessHandle::destroyForcibly);
    }

    private Path config() throws Exception {
        ObjectNode root = Json.object();
        ObjectNode servers = root.putObject("mcpServers");
        upstream(servers.putObject("early"), served);
        upstream(servers.putObject("off"), disabled).put("disabled", true);
        return Files.writeString(dir.resolve("mcpx.json"), Json.write(root));
    }

    /** The fake keeps running after its stdin closes: only mcpx stopping it ends it. */
    private static ObjectNode upstream(ObjectNode entry, String marker) {
        entry.put("command", TestGateways.java());
        ArrayNode args = entry.putArray("args");
        List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                StdioFakeServer.class.getName(), "--ignore-eof", "--stderr", marker).forEach(args::add);
        return entry;
    }

    @Test
    void theGatewayServesTheChildStartedEarlyAndNoOther() throws Exception {
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--stdio", "-c", config().toString())) {
            LineHost host = new LineHost(serve.process().getInputStream(), serve.process().getOutputStream());
            ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
            init.putObject("capabilities");
            init.putObject("clientInfo").put("name", "early-host").put("version", "1");
            host.request("initialize", init);
            host.notify("notifications/initialized", null);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(host.request("tools/list", null).path("result").path("tools").toString()).contains("early__echo"));
            List<ProcessHandle> children = running(served);
            assertThat(children).hasSize(1);
            assertThat(serve.process().descendants().map(ProcessHandle::pid)).contains(children.get(0).pid());
            assertThat(running(disabled)).isEmpty();
            host.close();
            assertThat(serve.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> running(served).isEmpty());
        }
    }

    @Test
    void aServeThatFailsAfterStartingItsUpstreamsLeavesNoneRunning() throws Exception {
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--stdio", "-c", config().toString(),
                "--profile", "no-such-profile")) {
            assertThat(serve.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(serve.process().exitValue()).as(serve.stderr()).isEqualTo(2);
            await().atMost(Duration.ofSeconds(30)).until(() -> running(served).isEmpty());
        }
    }

    /** Every live process on the machine whose command line holds {@code marker}. */
    private static List<ProcessHandle> running(String marker) throws IOException {
        List<ProcessHandle> found = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                String commandLine;
                try {
                    commandLine = Files.readString(entry.resolve("cmdline"), StandardCharsets.ISO_8859_1);
                } catch (IOException gone) {
                    continue;
                }
                if (commandLine.contains(marker)) {
                    ProcessHandle.of(Long.parseLong(entry.getFileName().toString()))
                            .filter(ProcessHandle::isAlive).ifPresent(found::add);
                }
            }
        }
        return found;
    }
}

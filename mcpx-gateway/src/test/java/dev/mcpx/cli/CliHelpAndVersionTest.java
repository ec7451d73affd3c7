package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.ServeProcess;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.protocol.Json;
import dev.mcpx.transport.UpstreamEndpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** What a new user meets first: {@code --help} on every command, one version everywhere, true connect errors. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CliHelpAndVersionTest {

    @TempDir
    Path home;

    @Test
    void everySubcommandAnswersHelpWithItsUsage() {
        Set<String> commands = new TreeSet<>(Main.commandLine().getSubcommands().keySet());
        commands.remove("help");
        assertThat(commands).contains("serve", "tools", "call", "probe");
        for (String command : commands) {
            for (String flag : new String[] {"--help", "-h"}) {
                CliRun run = CliRun.of(command, flag);
                assertThat(run.exitCode()).as(command + " " + flag + ": " + run.err()).isZero();
                assertThat(run.out()).as(command + " " + flag).startsWith("Usage: mcpx " + command);
                assertThat(run.err()).as(command + " " + flag).doesNotContain("Unknown option");
            }
        }
    }

    @Test
    void theVersionIsTheBuildsOneEverywhereItShows() throws Exception {
        CliRun top = CliRun.of("--version");
        assertThat(top.exitCode()).isZero();
        String version = top.out().strip().replace("mcpx ", "");
        assertThat(version).matches("\\d+\\.\\d+\\.\\d+([.-][A-Za-z0-9.-]+)?");
        assertThat(CliRun.of("serve", "--version").out().strip()).isEqualTo("mcpx " + version);

        // serve on the built-in default (no config anywhere): the host sees the same version twice
        try (ServeProcess serve = ServeProcess.start(Map.of("HOME", home.toString(), "MCPX_CONFIG", ""), "serve", "--stdio");
             LineHost host = new LineHost(serve.process().getInputStream(), serve.process().getOutputStream())) {
            ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
            init.putObject("capabilities");
            init.putObject("clientInfo").put("name", "version-host").put("version", "1");
            JsonNode initialized = host.request("initialize", init);
            assertThat(initialized.path("result").path("serverInfo").path("version").asString()).isEqualTo(version);
            host.notify("notifications/initialized", null);
            ObjectNode about = Json.object().put("name", "mcpx__about");
            about.putObject("arguments");
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(host.request("tools/call", about)
                    .path("result").path("content").path(0).path("text").asString()).startsWith("mcpx " + version + " "));
        }
    }

    @Test
    void aRefusedUrlIsReportedWithoutClaimingAnEra() {
        CliRun probe = CliRun.of("probe", "http://127.0.0.1:1/mcp");
        assertThat(probe.exitCode()).isEqualTo(1);
        assertThat(probe.err()).contains("cannot connect to http://127.0.0.1:1/mcp").doesNotContain("modern", "legacy");

        try (Gateway gateway = Gateway.start(TestGateways.config(UpstreamConfig.of("refused",
                UpstreamEndpoint.Http.of("http://127.0.0.1:1/mcp"))), TestGateways.settings(), Map.of())) {
            await().atMost(Duration.ofSeconds(60)).until(() -> gateway.status().getFirst().reason() != null);
            UpstreamStatus refused = gateway.status().getFirst();
            assertThat(refused.reason()).contains("cannot connect to http://127.0.0.1:1/mcp").doesNotContain("modern");
        }
    }
}

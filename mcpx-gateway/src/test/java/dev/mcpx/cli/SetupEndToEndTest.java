package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mcpx setup claude-desktop} as a child process whose HOME is a temp directory (so the
 * Linux path ~/.config/Claude/claude_desktop_config.json is the test's), then the command the
 * rewritten host entry names, started as the host would start it, serving the moved server.
 */
class SetupEndToEndTest {

    @TempDir
    Path home;

    @Test
    void theHostEntrySetupWritesStartsMcpxServingTheMovedServers() throws Exception {
        Path hostFile = home.resolve(".config/Claude/claude_desktop_config.json");
        Files.createDirectories(hostFile.getParent());
        List<String> fake = StdioFakeServer.command();
        ObjectNode root = Json.object();
        ObjectNode entry = root.putObject("mcpServers").putObject("fake");
        entry.put("command", fake.getFirst());
        ArrayNode args = entry.putArray("args");
        fake.subList(1, fake.size()).forEach(args::add);
        entry.putObject("env").put("FAKE_GREETING", "hello");
        String original = Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        Files.writeString(hostFile, original);

        Process setup = mcpx("setup", "claude-desktop");
        String setupErr = new String(setup.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(setup.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(setup.exitValue()).as(setupErr).isEqualTo(0);
        assertThat(setupErr).contains("moved fake");
        Path mcpxConfig = home.resolve(".config/mcpx/mcpx.json");
        assertThat(Json.parse(Files.readString(mcpxConfig)).path("mcpServers").path("fake").path("env").path("FAKE_GREETING").asString())
                .isEqualTo("hello");

        JsonNode hostEntry = Json.parse(Files.readString(hostFile)).path("mcpServers").path("mcpx");
        List<String> command = new ArrayList<>(List.of(hostEntry.path("command").asString()));
        hostEntry.path("args").forEach(arg -> command.add(arg.asString()));
        assertThat(command).endsWith("serve", "-c", mcpxConfig.toString());
        Process served = start(command);
        try (LineHost host = new LineHost(served.getInputStream(), served.getOutputStream())) {
            ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
            init.putObject("capabilities");
            init.putObject("clientInfo").put("name", "claude-desktop-stand-in").put("version", "1");
            assertThat(host.request("initialize", init).path("result").path("serverInfo").isObject()).isTrue();
            host.notify("notifications/initialized", null);

            ObjectNode call = Json.object().put("name", "fake__echo");
            call.putObject("arguments").put("text", "through mcpx");
            JsonNode reply = host.request("tools/call", call);

            assertThat(reply.path("result").path("content").path(0).path("text").asString()).as(reply.toString())
                    .isEqualTo("Echo: through mcpx");
        } finally {
            served.destroy();
            served.waitFor(15, TimeUnit.SECONDS);
        }

        Process undo = mcpx("setup", "claude-desktop", "--undo");
        String undoErr = new String(undo.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(undo.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(undo.exitValue()).as(undoErr).isEqualTo(0);
        assertThat(Files.readString(hostFile)).isEqualTo(original);
        assertThat(mcpxConfig).doesNotExist();
    }

    private Process mcpx(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(TestGateways.java(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "dev.mcpx.cli.Main"));
        command.addAll(List.of(args));
        Process process = start(command);
        process.getOutputStream().close();
        return process;
    }

    /** A child with the test's HOME and none of the caller's mcpx or XDG settings. */
    private Process start(List<String> command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> environment = builder.environment();
        environment.keySet().removeAll(List.of("MCPX_CONFIG", "XDG_CONFIG_HOME", "APPDATA", "USERPROFILE"));
        environment.put("HOME", home.toString());
        if (!command.contains("serve")) {
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        } else {
            builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        }
        return builder.start();
    }
}

package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.NodeTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** The command line against the official reference server, spawned over stdio with Node 22. */
class EverythingCliTest {

    @TempDir
    static Path dir;
    static Path config;

    @BeforeAll
    static void writeConfig() throws IOException {
        NodeTools tools = NodeTools.require();
        List<String> command = tools.serverEverythingStdio();
        ObjectNode root = Json.object();
        ObjectNode everything = root.putObject("mcpServers").putObject("everything");
        everything.put("command", command.getFirst());
        command.subList(1, command.size()).forEach(everything.withArray("args")::add);
        config = dir.resolve("cfg.json");
        Files.writeString(config, Json.write(root));
    }

    @Test
    void toolsListsTheReferenceServersTools() {
        CliRun run = CliRun.of("tools", "-c", config.toString(), "everything");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out().lines().map(line -> line.split("\t")[0]).toList()).contains("echo", "get-sum");
    }

    @Test
    void theMergedCatalogueNamespacesToolsByServer() {
        CliRun run = CliRun.of("tools", "-c", config.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("everything__echo").contains("everything__get-sum");
    }

    @Test
    void callEchoPrintsTheResult() {
        CliRun run = CliRun.of("call", "-c", config.toString(), "everything", "echo", "{\"message\":\"hi\"}");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("Echo: hi");
        assertThat(Json.parse(run.out()).path("content").isArray()).isTrue();
    }

    @Test
    void callGetSumAddsTwoAndThree() {
        CliRun run = CliRun.of("call", "-c", config.toString(), "everything", "get-sum", "{\"a\":2,\"b\":3}");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Json.parse(run.out()).path("content").path(0).path("text").asString()).contains("5");
    }

    @Test
    void anUnknownToolExitsOneWithTheUpstreamsError() {
        CliRun run = CliRun.of("call", "-c", config.toString(), "everything", "no-such-tool", "{}");

        assertThat(run.exitCode()).isEqualTo(1);
    }

    @Test
    void probeOverStdioSaysLegacyAndTheVersion() {
        List<String> command = NodeTools.require().serverEverythingStdio();
        String[] args = new String[command.size() + 2];
        args[0] = "probe";
        args[1] = "--";
        for (int i = 0; i < command.size(); i++) {
            args[i + 2] = command.get(i);
        }
        CliRun run = CliRun.of(args);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("era:             legacy").contains("protocolVersion: 2025-");
        assertThat(run.out()).containsPattern("tools: +\\d+");
    }
}

package dev.mcpx.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeToolsTest {

    @TempDir
    Path repo;

    @Test
    void findsToolsInTheEnclosingToolsDirectory() throws IOException {
        install(repo.resolve(".tools"));
        Path module = Files.createDirectories(repo.resolve("mcpx-testkit"));

        NodeTools tools = NodeTools.find(Map.<String, String>of()::get, module).orElseThrow();

        assertThat(tools.node()).isEqualTo(repo.resolve(".tools").resolve(NodeTools.NODE));
        assertThat(tools.serverEverythingStdio()).endsWith("stdio");
        assertThat(tools.conformance("list")).containsExactly(
                tools.node().toString(), tools.conformance().toString(), "list");
    }

    @Test
    void environmentVariablesWin() throws IOException {
        install(repo.resolve(".tools"));
        Path otherNode = Files.createFile(repo.resolve("node"));

        NodeTools tools = NodeTools.find(Map.of("MCPX_NODE", otherNode.toString())::get, repo).orElseThrow();

        assertThat(tools.node()).isEqualTo(otherNode);
    }

    @Test
    void emptyWhenNotInstalled() {
        assertThat(NodeTools.find(Map.<String, String>of()::get, repo)).isEmpty();
    }

    private static void install(Path toolsDir) throws IOException {
        for (String relative : new String[] {NodeTools.NODE, NodeTools.CONFORMANCE, NodeTools.SERVER_EVERYTHING}) {
            Path file = toolsDir.resolve(relative);
            Files.createDirectories(file.getParent());
            Files.createFile(file);
        }
    }
}

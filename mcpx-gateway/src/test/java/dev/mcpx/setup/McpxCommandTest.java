package dev.mcpx.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command a host entry gets, and which host entries count as running mcpx (the loop guard). */
class McpxCommandTest {

    @Test
    void theLauncherBinMcpxNamesWinsAndServeUsesTheAbsoluteConfig() {
        McpxCommand command = McpxCommand.from("/opt/mcpx/bin/mcpx", Path.of("/opt/mcpx/mcpx.jar"), "/jdk/bin/java", "x");

        assertThat(command.serve(Path.of("/home/ada/.config/mcpx/mcpx.json")))
                .containsExactly("/opt/mcpx/bin/mcpx", "serve", "-c", "/home/ada/.config/mcpx/mcpx.json");
    }

    @Test
    void withoutALauncherTheJarRunsOnThisJava() {
        assertThat(McpxCommand.from(null, Path.of("/opt/mcpx/mcpx.jar"), "/jdk/bin/java", "x").launcher())
                .containsExactly("/jdk/bin/java", "-jar", "/opt/mcpx/mcpx.jar");
    }

    @Test
    void fromClassesTheClassPathIsMadeAbsolute() {
        List<String> launcher = McpxCommand.from(null, Path.of("target/classes"), "/jdk/bin/java",
                "target/classes" + File.pathSeparator + "/m2/picocli.jar").launcher();

        assertThat(launcher).containsExactly("/jdk/bin/java", "-cp",
                Path.of("target/classes").toAbsolutePath() + File.pathSeparator + "/m2/picocli.jar", "dev.mcpx.cli.Main");
    }

    @Test
    void everyWayOfStartingMcpxCountsAsMcpx() {
        assertThat(McpxCommand.runsMcpx("mcpx", List.of("serve"))).isTrue();
        assertThat(McpxCommand.runsMcpx("/home/ada/mcpx/bin/mcpx", List.of())).isTrue();
        assertThat(McpxCommand.runsMcpx("C:\\mcpx\\bin\\mcpx.cmd", List.of())).isTrue();
        assertThat(McpxCommand.runsMcpx("java", List.of("-jar", "/opt/mcpx/mcpx.jar", "serve"))).isTrue();
        assertThat(McpxCommand.runsMcpx("java", List.of("-cp", "x", "dev.mcpx.cli.Main", "serve"))).isTrue();
        assertThat(McpxCommand.runsMcpx("bash", List.of("/opt/mcpx/bin/mcpx", "serve"))).isTrue();
        assertThat(McpxCommand.runsMcpx("npx", List.of("-y", "@modelcontextprotocol/server-filesystem"))).isFalse();
        assertThat(McpxCommand.runsMcpx("uvx", List.of("mcpx-lookalike-server"))).isFalse();
    }
}

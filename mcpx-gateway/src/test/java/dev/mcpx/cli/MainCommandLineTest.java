package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.ConfigLoader;
import dev.mcpx.config.GatewayConfig;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Which subcommands a command line gets, that what the warm-up runs is a valid config, and that
 * picocli is the build the AOT cache can hold.
 */
class MainCommandLineTest {

    private static final String[] EVERY_COMMAND = {"serve", "tools", "call", "probe", "conformance-client", "setup",
            "doctor", "login", "logout", "help"};

    @Test
    void aCommandLineThatBeginsWithACommandGetsThatCommandAlone() {
        assertThat(Main.commandLine("serve", "-c", "mcpx.json", "--stdio").getSubcommands()).containsOnlyKeys("serve");
        assertThat(Main.commandLine("tools").getSubcommands()).containsOnlyKeys("tools");
        assertThat(Main.commandLine("conformance-client", "http://127.0.0.1:1/mcp").getSubcommands())
                .containsOnlyKeys("conformance-client");
    }

    @Test
    void anyOtherCommandLineGetsEveryCommandInHelpOrder() {
        for (String[] args : new String[][] {{}, {"--help"}, {"--version"}, {"help", "serve"}, {"servee"}, {"-c", "x", "serve"}}) {
            assertThat(Main.commandLine(args).getSubcommands().keySet()).as(String.join(" ", args))
                    .containsExactly(EVERY_COMMAND);
        }
    }

    @Test
    void aCommandLineWithOnlyItsCommandAnswersAsTheFullOneDid() {
        CliRun unknown = CliRun.of("serve", "--no-such-option");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("Unknown option: '--no-such-option'").contains("Usage: mcpx serve");

        CliRun version = CliRun.of("tools", "--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("mcpx ");

        CliRun typo = CliRun.of("servee");
        assertThat(typo.exitCode()).isEqualTo(2);
        assertThat(typo.err()).contains("serve");
    }

    @Test
    void theWarmUpParsesAConfigWithOneUpstream() {
        GatewayConfig config = new ConfigLoader(Map.of()).parse(Main.WARM_UP_CONFIG, Path.of("mcpx-warm-up.json"));

        assertThat(config.upstreams()).hasSize(1);
    }

    @Test
    void picocliIsCompiledForJava21SoTheAotCacheHoldsIt() throws IOException {
        // the JVM's AOT cache skips classes older than version 50, which picocli's own jar holds
        try (InputStream in = CommandLine.class.getResourceAsStream("CommandLine.class");
             DataInputStream data = new DataInputStream(in)) {
            assertThat(data.readInt()).isEqualTo(0xCAFEBABE);
            data.readUnsignedShort();

            assertThat(data.readUnsignedShort()).as("class-file major version").isEqualTo(65);
        }
    }
}

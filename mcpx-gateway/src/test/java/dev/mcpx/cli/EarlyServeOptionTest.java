package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import picocli.CommandLine;

/** The early read's {@code -c} is the one picocli gives {@code serve}, or there is no early read. */
class EarlyServeOptionTest {

    private static final List<String> WORDS = List.of("-c", "--config", "a.json", "b.json", "--config=c.json", "-c=d.json",
            "-ce.json", "--config=", "-c=", "--stdio", "--http", "127.0.0.1:0", "--profile", "p", "--metrics",
            "--token-file", "--token", "t", "--allow-unauthenticated", "--tls-cert", "--", "@args", "-", "-x", "--configx");

    @Property(tries = 3000)
    void aFileReadEarlyIsTheFilePicocliGivesServe(@ForAll("commandLines") List<String> serveArgs) {
        Path early;
        try {
            early = EarlyServe.configOption(serveArgs);
        } catch (IllegalArgumentException notSure) {
            return;
        }
        Path picocli;
        try {
            picocli = picocliConfig(serveArgs);
        } catch (CommandLine.ParameterException refused) {
            return;
        }
        assertThat(early).isEqualTo(picocli);
    }

    @Example
    void everyWayOfNamingTheFileIsReadEarly() {
        assertThat(EarlyServe.configOption(List.of("-c", "a.json", "--stdio"))).isEqualTo(Path.of("a.json"));
        assertThat(EarlyServe.configOption(List.of("--http", "--config", "a.json"))).isEqualTo(Path.of("a.json"));
        assertThat(EarlyServe.configOption(List.of("--config=a.json"))).isEqualTo(Path.of("a.json"));
        assertThat(EarlyServe.configOption(List.of("-c=a.json"))).isEqualTo(Path.of("a.json"));
        assertThat(EarlyServe.configOption(List.of("-ca.json"))).isEqualTo(Path.of("a.json"));
        assertThat(EarlyServe.configOption(List.of("--stdio", "--profile", "p"))).isNull();
        for (List<String> args : List.of(List.of("-c", "a.json", "-c", "b.json"), List.of("-c", "a.json"),
                List.of("--config=a.json"), List.of("-c=a.json"), List.of("-ca.json"))) {
            if (args.size() < 4) {
                assertThat(picocliConfig(args)).isEqualTo(Path.of("a.json"));
            }
        }
    }

    private static Path picocliConfig(List<String> serveArgs) {
        List<String> args = new ArrayList<>(List.of("serve"));
        args.addAll(serveArgs);
        CommandLine.ParseResult parsed = Main.commandLine(args.toArray(String[]::new)).parseArgs(args.toArray(String[]::new));
        return parsed.subcommand().matchedOptionValue("-c", null);
    }

    @Provide
    Arbitrary<List<String>> commandLines() {
        return Arbitraries.of(WORDS).list().ofMaxSize(6);
    }
}

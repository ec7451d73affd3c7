package dev.mcpx.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/mcpx in a clone without a built jar: a host that spawns it (serve in stdio mode, stdin a
 * pipe) gets exit 2 at once and the command to run; a person at a terminal, or serve --http, gets
 * the build. The clone here is the
 * launcher scripts and a stand-in ./mvnw that records that it ran.
 */
class RepositoryLauncherTest {

    @TempDir
    Path clone;

    private Path built;

    @BeforeEach
    void copyTheLauncher() throws Exception {
        Files.createDirectories(clone.resolve("bin/lib"));
        for (String script : List.of("mcpx", "find-java", "mcpx-aot", "lib/jit.sh")) {
            Files.copy(Script.root().resolve("bin").resolve(script), clone.resolve("bin").resolve(script));
        }
        built = clone.resolve("mvnw-ran");
        Script.write(clone.resolve("mvnw"), "echo \"$*\" > '" + built + "'; echo 'stand-in build fails' >&2; exit 1");
    }

    private Map<String, String> environment() {
        return Map.of("PATH", "/usr/bin:/bin", "HOME", clone.toString());
    }

    @Test
    void aHostThatSpawnsItWithNoJarGetsExitTwoAndTheCommandAtOnceWithoutABuild() throws Exception {
        Script run = Script.run(clone, environment(), List.of(clone.resolve("bin/mcpx").toString(), "serve", "--stdio"));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("is not built").contains(clone.resolve("bin/mcpx") + " build");
        assertThat(run.out()).isEmpty();
        assertThat(built).doesNotExist();
    }

    @Test
    void atATerminalItBuildsTheJarFirst() throws Exception {
        // script(1) gives the launcher a terminal as stdin, as a person typing the README's command has
        Script run = Script.run(clone, environment(), List.of("script", "-qec",
                clone.resolve("bin/mcpx") + " serve --http 127.0.0.1:0", "/dev/null"));

        assertThat(built).exists();
        assertThat(Files.readString(built)).contains("-DskipTests package");
        assertThat(run.out()).contains("the build failed");
        assertThat(run.exitCode()).isEqualTo(2);
    }

    @Test
    void theReadmesHttpCommandBuildsTheJarFirstWithoutATerminalToo() throws Exception {
        Script run = Script.run(clone, environment(), List.of(clone.resolve("bin/mcpx").toString(), "serve", "--http", "127.0.0.1:0"));

        assertThat(built).exists();
        assertThat(run.err()).contains("the build failed");
        assertThat(run.exitCode()).isEqualTo(2);
    }

    @Test
    void buildBuildsWhateverStdinIs() throws Exception {
        Script run = Script.run(clone, environment(), List.of(clone.resolve("bin/mcpx").toString(), "build"));

        assertThat(built).exists();
        assertThat(run.err()).contains("the build failed");
        assertThat(run.exitCode()).isEqualTo(2);
    }
}

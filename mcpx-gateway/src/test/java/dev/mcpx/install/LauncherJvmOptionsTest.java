package dev.mcpx.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM options bin/mcpx chooses, seen by a stand-in java that prints them: on 2 cores or fewer
 * C1 only (unless MCPX_JIT=tiered) and the serial collector from a small heap, unless
 * MCPX_JAVA_OPTS chooses; freed native memory given back; the AOT cache mapped where it was
 * written for, its training data not replayed when the JIT is C1 only. {@code nproc} is a stand-in too, saying how many cores.
 */
class LauncherJvmOptionsTest {

    @TempDir
    Path clone;

    private Path javaHome;

    @BeforeEach
    void cloneWithABuiltJar() throws Exception {
        for (String script : List.of("mcpx", "find-java", "mcpx-aot", "lib/jit.sh", "lib/servers.sh")) {
            Files.createDirectories(clone.resolve("bin/lib"));
            Files.copy(Script.root().resolve("bin").resolve(script), clone.resolve("bin").resolve(script));
        }
        Files.createDirectories(clone.resolve("mcpx-gateway/target"));
        Files.writeString(clone.resolve("mcpx-gateway/target/mcpx.jar"), "a jar");
        javaHome = Script.fakeJavaHome(clone.resolve("jdk"), "25.0.3", "");
        Script.write(javaHome.resolve("bin/java"), "echo \"$*\"");
    }

    private String javaOptions(int cores, Map<String, String> variables) throws Exception {
        Script.write(clone.resolve("fake-bin/nproc"), "echo " + cores);
        Map<String, String> environment = new HashMap<>(Map.of("PATH", clone.resolve("fake-bin") + ":/usr/bin:/bin",
                "HOME", clone.toString(), "JAVA_HOME", javaHome.toString(), "MCPX_AOT", "0"));
        environment.putAll(variables);
        Script run = Script.run(clone, environment, List.of(clone.resolve("bin/mcpx").toString(), "--version"));
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run.out();
    }

    @Test
    void onTwoCoresTheSerialCollectorStartsFromASmallHeap() throws Exception {
        assertThat(javaOptions(2, Map.of())).contains("-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms8m");
    }

    @Test
    void mcpxJitTieredKeepsC2OnTwoCores() throws Exception {
        assertThat(javaOptions(2, Map.of("MCPX_JIT", "tiered"))).doesNotContain("TieredStopAtLevel");
        assertThat(javaOptions(2, Map.of("MCPX_JAVA_OPTS", "-XX:TieredStopAtLevel=3")))
                .contains("-XX:TieredStopAtLevel=3").doesNotContain("TieredStopAtLevel=1");
    }

    @Test
    void freedNativeMemoryIsGivenBackUnlessMcpxJavaOptsChooses() throws Exception {
        assertThat(javaOptions(2, Map.of())).contains("-XX:TrimNativeHeapInterval=1000");
        assertThat(javaOptions(8, Map.of())).contains("-XX:TrimNativeHeapInterval=1000");
        assertThat(javaOptions(2, Map.of("MCPX_JAVA_OPTS", "-XX:TrimNativeHeapInterval=0")))
                .contains("-XX:TrimNativeHeapInterval=0").doesNotContain("TrimNativeHeapInterval=1000");
    }

    @Test
    void theJarIsOnTheClassPathSoItsDirectoryIsReadOnce() throws Exception {
        assertThat(javaOptions(2, Map.of())).doesNotContain("-jar")
                .endsWith("-cp " + clone.resolve("mcpx-gateway/target/mcpx.jar") + " dev.mcpx.cli.Main --version\n");
    }

    @Test
    void onMoreCoresTheJvmChooses() throws Exception {
        assertThat(javaOptions(8, Map.of())).doesNotContain("TieredStopAtLevel", "UseSerialGC", "-Xms");
    }

    @Test
    void aCollectorOrHeapInMcpxJavaOptsWins() throws Exception {
        assertThat(javaOptions(2, Map.of("MCPX_JAVA_OPTS", "-XX:+UseG1GC"))).doesNotContain("UseSerialGC", "-Xms8m");
        assertThat(javaOptions(2, Map.of("MCPX_JAVA_OPTS", "-Xms64m"))).doesNotContain("UseSerialGC", "-Xms8m");
    }

    @Test
    void theCachesTrainingDataIsReplayedOnlyWhenC2IsOn() throws Exception {
        Path cache = Files.writeString(clone.resolve("mcpx-gateway/target/mcpx.aot"), "a cache");
        Files.setLastModifiedTime(cache, FileTime.from(Instant.now().plusSeconds(60)));
        assertThat(javaOptions(2, Map.of("MCPX_AOT", "1"))).contains("-XX:TieredStopAtLevel=1 -XX:+UnlockDiagnosticVMOptions -XX:-AOTReplayTraining");
        assertThat(javaOptions(8, Map.of("MCPX_AOT", "1"))).doesNotContain("AOTReplayTraining");
        assertThat(javaOptions(2, Map.of("MCPX_AOT", "1", "MCPX_JIT", "tiered"))).doesNotContain("AOTReplayTraining");
        assertThat(javaOptions(2, Map.of("MCPX_AOT", "0"))).doesNotContain("AOTReplayTraining");
    }

    @Test
    void aCacheTrainedForAGatewayWithC1OnlyRecordsNoTrainingData() throws Exception {
        assertThat(trainingOptions(2, List.of())).contains("-XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining");
        assertThat(trainingOptions(8, List.of())).doesNotContain("AOTRecordTraining");
        assertThat(trainingOptions(2, List.of("--profiles"))).doesNotContain("AOTRecordTraining");
    }

    /** The options bin/mcpx-aot starts its training gateway with (a stand-in java says it listens, then idles). */
    private String trainingOptions(int cores, List<String> arguments) throws Exception {
        Path log = clone.resolve("java-arguments-" + cores + arguments.size());
        Script.write(javaHome.resolve("bin/java"), "echo \"$*\" >> '" + log + "'\n"
                + "echo 'mcpx: listening on http://127.0.0.1:9/mcp'\nexec sleep 60");
        Script.write(clone.resolve("fake-bin/nproc"), "echo " + cores);
        List<String> command = new java.util.ArrayList<>(List.of(clone.resolve("bin/mcpx-aot").toString()));
        command.addAll(arguments);
        Script run = Script.run(clone, Map.of("PATH", clone.resolve("fake-bin") + ":/usr/bin:/bin", "HOME", clone.toString(),
                "JAVA_HOME", javaHome.toString()), command);
        assertThat(log).as(run.err()).exists();
        return Files.readAllLines(log).stream().filter(line -> line.contains("AOTCacheOutput")).findFirst().orElseThrow();
    }

    @Test
    void theAotCacheIsMappedWhereItWasWritten() throws Exception {
        Path cache = Files.writeString(clone.resolve("mcpx-gateway/target/mcpx.aot"), "a cache");
        Files.setLastModifiedTime(cache, FileTime.from(Instant.now().plusSeconds(60)));
        assertThat(javaOptions(2, Map.of("MCPX_AOT", "1")))
                .contains("-XX:AOTCache=" + cache, "-XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0");
    }
}

package dev.mcpx.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The runtime image as a user gets it: bin/package makes the tarball from the jar this build just
 * packaged, the tarball is unpacked elsewhere, and its bin/mcpx serves stdio with nothing from the
 * machine: no PATH, no JAVA_HOME (an empty environment, like {@code env -i}), only a HOME without
 * a config, so the built-in server is what it serves.
 */
class RuntimeImageIT {

    @TempDir
    static Path work;

    static Path image;

    @BeforeAll
    @Timeout(value = 15, unit = TimeUnit.MINUTES) // jdeps, jlink and the AOT training: minutes on a loaded machine
    static void packageAndUnpack() throws Exception {
        Path root = Script.root();
        Path out = root.resolve("mcpx-gateway/target/runtime-image-it");
        ProcessBuilder builder = new ProcessBuilder(root.resolve("bin/package").toString(), "--skip-build",
                "--out", out.toString()).redirectErrorStream(true);
        Process packaging = builder.start();
        String log;
        try {
            log = new String(packaging.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(packaging.waitFor()).as(log).isZero();
        } finally {
            packaging.descendants().forEach(ProcessHandle::destroy);
            packaging.destroy();
        }
        String[] lines = log.strip().split("\n");
        Path tarball = Path.of(lines[lines.length - 1]);
        assertThat(tarball.getFileName().toString()).matches("mcpx-.+-(linux|macos)-(x64|aarch64)\\.tar\\.gz");

        Path unpacked = work.resolve("opt");
        Files.createDirectories(unpacked);
        Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", unpacked.toString())
                .inheritIO().start();
        assertThat(tar.waitFor()).isZero();
        try (Stream<Path> entries = Files.list(unpacked)) {
            image = entries.findFirst().orElseThrow();
        }
    }

    @Test
    void theImageHasItsOwnJavaAndNoJdk() {
        assertThat(image.resolve("bin/java")).isExecutable();
        assertThat(image.resolve("bin/mcpx")).isExecutable();
        assertThat(image.resolve("bin/mcpx.cmd")).isRegularFile();
        assertThat(image.resolve("bin/javac")).doesNotExist();
        assertThat(image.resolve("lib/mcpx/mcpx.jar")).isRegularFile();
    }

    @Test
    void itServesStdioWithAnEmptyEnvironment() throws Exception {
        Path home = work.resolve("home");
        Files.createDirectories(home);
        ProcessBuilder builder = new ProcessBuilder(image.resolve("bin/mcpx").toString(), "serve", "--stdio")
                .redirectError(work.resolve("stderr.txt").toFile());
        builder.environment().clear();
        builder.environment().putAll(Map.of("HOME", home.toString()));
        Process mcpx = builder.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> readLines(mcpx, lines));
        try (OutputStream stdin = mcpx.getOutputStream()) {
            send(stdin, """
                    {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
                    "capabilities":{},"clientInfo":{"name":"RuntimeImageIT","version":"1"}}}""");
            JsonNode initialized = reply(lines, mcpx, 1);
            assertThat(initialized.path("result").path("serverInfo").path("name").asString()).isEqualTo("mcpx");
            assertThat(initialized.path("result").path("protocolVersion").asString()).isEqualTo("2025-11-25");

            send(stdin, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(stdin, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            List<String> tools = new ArrayList<>();
            reply(lines, mcpx, 2).path("result").path("tools").forEach(tool -> tools.add(tool.path("name").asString()));
            assertThat(tools).contains("mcpx__about", "mcpx__echo");
        }
        assertThat(mcpx.waitFor(60, TimeUnit.SECONDS)).as("mcpx exits when stdin closes").isTrue();
        assertThat(Files.readString(work.resolve("stderr.txt"))).contains("built-in");
    }

    private static void send(OutputStream stdin, String message) throws IOException {
        stdin.write((message.replace("\n", " ") + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** The response with this id (notifications before it are skipped); a dead or silent mcpx fails. */
    private static JsonNode reply(BlockingQueue<String> lines, Process mcpx, int id) throws Exception {
        while (true) {
            String line = lines.poll(90, TimeUnit.SECONDS);
            if (line == null || line.equals(EOF)) {
                throw new AssertionError("no reply to id " + id + " (alive: " + mcpx.isAlive() + "); stderr: "
                        + Files.readString(work.resolve("stderr.txt")));
            }
            JsonNode message = Json.parse(line);
            if (message.path("id").asInt(-1) == id) {
                return message;
            }
        }
    }

    private static final String EOF = "\u0000eof";

    private static void readLines(Process process, BlockingQueue<String> lines) {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process went away: reply() reports it with its stderr
        }
        lines.add(EOF);
    }
}

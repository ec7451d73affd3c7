package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a gateway may never need costs its start nothing: {@code mcpx serve} without
 * {@code mcpx.telemetry} loads no OpenTelemetry class, not even when it measures a host's request,
 * and with it the SDK is there; no SecureRandom is made before a host's call is held (its
 * security providers took 14 ms of every start). The JVM's class-load log says what was loaded.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LoadedOnDemandTest {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n";

    /** The classes {@code mcpx serve --stdio} loaded from start to its exit when its host sent {@code initialize} and closed stdin. */
    private static List<String> loadedClasses(Path dir, String config) throws Exception {
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, config);
        Path log = dir.resolve("classes.log");
        Process serve = new ProcessBuilder(TestGateways.java(), "-XX:TieredStopAtLevel=1", "-Xlog:class+load=info:file=" + log,
                "-cp", System.getProperty("java.class.path"), "dev.mcpx.cli.Main", "serve", "-c", file.toString(), "--stdio")
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
        try (OutputStream host = serve.getOutputStream()) {
            host.write(INITIALIZE.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(serve.waitFor(120, TimeUnit.SECONDS)).as("serve exits when stdin closes: %s",
                Files.readString(dir.resolve("stderr.txt"))).isTrue();
        assertThat(new String(serve.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).as("the answer to initialize")
                .contains("\"id\":1,\"result\"");
        return Files.readAllLines(log);
    }

    @Test
    void withoutTelemetryConfiguredNoOpenTelemetryClassIsLoaded(@TempDir Path dir) throws Exception {
        List<String> loaded = loadedClasses(dir, "{\"mcpServers\": {}}");
        assertThat(loaded).as("the gateway started").anyMatch(line -> line.contains("dev.mcpx.telemetry.Telemetry "));
        assertThat(loaded).noneMatch(line -> line.contains("io.opentelemetry."));
    }

    @Test
    void withTelemetryConfiguredTheSdkIsLoaded(@TempDir Path dir) throws Exception {
        List<String> loaded = loadedClasses(dir,
                "{\"mcpx\": {\"telemetry\": {\"endpoint\": \"http://127.0.0.1:9/\"}}, \"mcpServers\": {}}");
        assertThat(loaded).anyMatch(line -> line.contains("io.opentelemetry.sdk.trace.SdkTracerProvider "));
    }

    @Test
    void noSecureRandomIsMadeBeforeACallIsHeld(@TempDir Path dir) throws Exception {
        List<String> loaded = loadedClasses(dir, "{\"mcpServers\": {}}");
        assertThat(loaded).as("the gateway started").anyMatch(line -> line.contains("dev.mcpx.router.HeldCalls "));
        assertThat(loaded).noneMatch(line -> line.contains("java.security.SecureRandom "));
    }
}

package dev.mcpx.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.TestGateways;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces cost a gateway nothing until they are configured: {@code mcpx serve} without
 * {@code mcpx.telemetry} loads no OpenTelemetry class (the JVM's class-load log says which it
 * loaded), and with it, the SDK is there.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TracingOffTest {

    /** The classes {@code mcpx serve --stdio} loaded from start to its exit when its host closed stdin at once. */
    private static List<String> loadedClasses(Path dir, String config) throws Exception {
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, config);
        Path log = dir.resolve("classes.log");
        Process serve = new ProcessBuilder(TestGateways.java(), "-XX:TieredStopAtLevel=1", "-Xlog:class+load=info:file=" + log,
                "-cp", System.getProperty("java.class.path"), "dev.mcpx.cli.Main", "serve", "-c", file.toString(), "--stdio")
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
        serve.getOutputStream().close();
        assertThat(serve.waitFor(120, TimeUnit.SECONDS)).as("serve exits when stdin closes: %s",
                Files.readString(dir.resolve("stderr.txt"))).isTrue();
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
}

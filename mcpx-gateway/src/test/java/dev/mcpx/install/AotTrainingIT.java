package dev.mcpx.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/mcpx-aot trains the AOT cache on calls through every kind of upstream, so the cache a
 * gateway starts from holds the classes of the first calls it proxies, not only of its start, and
 * of the lines it logs at serve's level; and nothing of the platform MBean server, which no gateway
 * starts.
 */
class AotTrainingIT {

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // two gateways and 400 calls: minutes on a loaded machine
    void theCacheHoldsTheTransportOfEachKindOfUpstream(@TempDir Path dir) throws Exception {
        Path root = Script.root();
        Path jar = root.resolve("mcpx-gateway/target/mcpx.jar");
        Path cache = dir.resolve("mcpx.aot");
        Path javaHome = Path.of(System.getProperty("java.home"));
        Process training = new ProcessBuilder(root.resolve("bin/mcpx-aot").toString(), "--java-home", javaHome.toString(),
                "--jar", jar.toString(), "--cache", cache.toString()).redirectErrorStream(true).start();
        String log = new String(training.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(training.waitFor()).as(log).isZero();

        Process listing = new ProcessBuilder(javaHome.resolve("bin/java").toString(), "-XX:AOTCache=" + cache, "-XX:+PrintSharedArchiveAndExit",
                "-jar", jar.toString()).redirectErrorStream(true).start();
        String classes = new String(listing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        listing.waitFor();
        assertThat(classes).contains("dev.mcpx.transport.stdio.StdioTransport ",
                "dev.mcpx.transport.http.LegacyHttpTransport ", "dev.mcpx.transport.http.ModernHttpTransport ",
                "org.eclipse.jetty.client.HttpClient ", "dev.mcpx.front.http.McpEndpoint ",
                "ch.qos.logback.classic.spi.LoggingEvent ").doesNotContain("com.sun.jmx.mbeanserver.JmxMBeanServer ");
    }
}

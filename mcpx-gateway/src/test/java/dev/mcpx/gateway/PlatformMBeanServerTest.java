package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * A gateway never starts the JVM's platform MBean server: Jetty starts it to learn whether object
 * references are compressed unless it is told, which cost about 200 ms of CPU at every start. The
 * JVM's class-loading log shows whether the server was made.
 */
class PlatformMBeanServerTest {

    /** Loaded when the platform MBean server is made. */
    private static final String MBEAN_SERVER = "com.sun.jmx.mbeanserver.JmxMBeanServer ";

    @TempDir
    Path dir;

    @Test
    void anHttpGatewayWithMetricsCallingAnHttpUpstreamStartsNoPlatformMBeanServer() throws Exception {
        Path classes = dir.resolve("gateway.classes");
        ObjectNode root = Json.object();
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started()) {
            root.putObject("mcpServers").putObject("remote").put("url", legacy.url().toString());
            Path config = Files.writeString(dir.resolve("config.json"), Json.write(root));
            try (ServeProcess serve = ServeProcess.start(List.of("-Xlog:class+load:file=" + classes), Map.of(),
                    "serve", "-c", config.toString(), "--http", "127.0.0.1:0", "--metrics", "127.0.0.1:0").awaitListening()) {
                HttpHost host = HttpHost.modern(serve.mcpUri());
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(host.request("tools/list", null).body())
                        .as(serve::stderr).contains("remote__echo"));

                assertThat(host.call("remote__echo", Json.object().put("text", "hi")).text()).isEqualTo("hi");
                assertThat(Files.readString(classes)).contains("org.eclipse.jetty.util.BlockingArrayQueue ")
                        .doesNotContain(MBEAN_SERVER);
            }
        }
    }
}

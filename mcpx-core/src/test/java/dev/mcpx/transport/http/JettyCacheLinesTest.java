package dev.mcpx.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client's HTTP calls never start the JVM's platform MBean server, which Jetty starts to learn
 * whether object references are compressed unless it is told (about 200 ms of CPU). Each case is a
 * JVM of its own, whose class-loading log shows whether the server was made.
 */
class JettyCacheLinesTest {

    private static final String MBEAN_SERVER = "com.sun.jmx.mbeanserver.JmxMBeanServer ";

    @TempDir
    Path dir;
    private LegacyHttpUpstream upstream;

    @BeforeEach
    void start() {
        upstream = LegacyHttpUpstream.started();
    }

    @AfterEach
    void stop() {
        upstream.close();
    }

    @Test
    void aClientsCallsOverHttpStartNoPlatformMBeanServer() throws Exception {
        Child child = call(List.of());

        assertThat(child.output()).as(child::log).isEqualTo("called; references per cache line 16");
        assertThat(child.classes()).contains("org.eclipse.jetty.util.BlockingArrayQueue ").doesNotContain(MBEAN_SERVER);
    }

    @Test
    void uncompressedReferencesAreTwiceAsWide() throws Exception {
        Child child = call(List.of("-XX:-UseCompressedOops"));

        assertThat(child.output()).as(child::log).isEqualTo("called; references per cache line 8");
        assertThat(child.classes()).doesNotContain(MBEAN_SERVER);
    }

    @Test
    void aValueTheUserSetIsKept() throws Exception {
        Child child = call(List.of("-D" + JettyCacheLines.REFERENCES_PER_LINE + "=4"));

        assertThat(child.output()).as(child::log).isEqualTo("called; references per cache line 4");
    }

    private record Child(String output, String log, String classes) {
    }

    private Child call(List<String> jvmOptions) throws Exception {
        Path classes = dir.resolve("classes.log");
        Path log = dir.resolve("child.log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Xlog:class+load:file=" + classes));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ClientMain.class.getName(), upstream.url().toString()));
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Child(output, Files.readString(log), Files.readString(classes));
    }

    /** One tool call through the library's client, then the property Jetty read. */
    static final class ClientMain {
        public static void main(String[] args) {
            UpstreamEndpoint.Http endpoint = new UpstreamEndpoint.Http(URI.create(args[0]), Map.of(), UpstreamEndpoint.HttpKind.AUTO);
            try (McpClient client = McpClient.builder(endpoint).requestTimeout(Duration.ofSeconds(20)).build().connect()) {
                client.callTool("echo", Json.object().put("text", "hi"), RequestOptions.defaults());
            }
            System.out.println("called; references per cache line " + System.getProperty(JettyCacheLines.REFERENCES_PER_LINE));
        }
    }
}

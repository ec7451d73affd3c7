package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.LineHost;
import dev.mcpx.gateway.ServeProcess;
import dev.mcpx.protocol.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a gateway's launch leaves off its main thread, read from the JVM's logs of a real
 * {@code serve}: Jetty's {@code MimeTypes} (the JVM's list of every locale, 45-55 ms) initialised
 * on the warm-up thread while picocli builds its model, and no annotation read at all (the JDK
 * makes a proxy class per annotation type: 30-50 ms when picocli built {@code serve} from them).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServeLaunchTest {

    private static final String MIME_TYPES = "Initializing 'org/eclipse/jetty/http/MimeTypes' ";

    /** How the JVM's class-loading log names a class the JDK made for {@code java.lang.reflect.Proxy}. */
    private static final String PROXY_CLASS = "source: __dynamic_proxy__";

    @TempDir
    Path dir;

    @Test
    void anHttpGatewayInitialisesMimeTypesOnTheWarmUpThreadAndReadsNoAnnotation() throws Exception {
        Path initialised = dir.resolve("init.log");
        Path loaded = dir.resolve("load.log");
        try (ServeProcess serve = ServeProcess.start(List.of("-Xlog:class+init=info:file=" + initialised,
                        "-Xlog:class+load=info:file=" + loaded), Map.of(),
                "serve", "-c", emptyConfig().toString(), "--http", "127.0.0.1:0").awaitListening()) {
            List<String> lines = Files.readAllLines(initialised).stream().filter(line -> line.contains(MIME_TYPES)).toList();

            assertThat(lines).as(serve::stderr).singleElement().asString().contains("by thread \"mcpx-warm-up\"");
            assertThat(Files.readString(loaded)).contains("dev.mcpx.cli.ServeCommand ").doesNotContain(PROXY_CLASS);
        }
    }

    @Test
    void aStdioGatewayReadsNoAnnotation() throws Exception {
        Path loaded = dir.resolve("load.log");
        try (ServeProcess serve = ServeProcess.start(List.of("-Xlog:class+load=info:file=" + loaded), Map.of(),
                "serve", "-c", emptyConfig().toString());
             LineHost host = new LineHost(serve.process().getInputStream(), serve.process().getOutputStream())) {
            ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
            init.putObject("capabilities");
            init.putObject("clientInfo").put("name", "launch-test").put("version", "1");
            assertThat(host.request("initialize", init).path("result").path("serverInfo").path("name").asString())
                    .as(serve::stderr).isEqualTo("mcpx");

            assertThat(Files.readString(loaded)).contains("dev.mcpx.cli.ServeCommand ").doesNotContain(PROXY_CLASS);
        }
    }

    private Path emptyConfig() throws Exception {
        return Files.writeString(dir.resolve("mcpx.json"), "{\"mcpServers\": {}}");
    }
}

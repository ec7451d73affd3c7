package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.ServeProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An HTTP gateway's main thread does not pay for Jetty's {@code MimeTypes} (the JVM's list of
 * every locale, 45-55 ms at launch) before it listens: the warm-up thread has initialised it while
 * picocli built its model. The JVM's class-initialisation log names the thread.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EarlyFrontTest {

    private static final String MIME_TYPES = "Initializing 'org/eclipse/jetty/http/MimeTypes' ";

    @TempDir
    Path dir;

    @Test
    void anHttpGatewaysMimeTypesAreInitialisedOnTheWarmUpThread() throws Exception {
        Path log = dir.resolve("init.log");
        Path config = Files.writeString(dir.resolve("mcpx.json"), "{\"mcpServers\": {}}");
        try (ServeProcess serve = ServeProcess.start(List.of("-Xlog:class+init=info:file=" + log), Map.of(),
                "serve", "-c", config.toString(), "--http", "127.0.0.1:0").awaitListening()) {
            List<String> lines = Files.readAllLines(log).stream().filter(line -> line.contains(MIME_TYPES)).toList();

            assertThat(lines).as(serve::stderr).singleElement().asString().contains("by thread \"mcpx-warm-up\"");
        }
    }
}

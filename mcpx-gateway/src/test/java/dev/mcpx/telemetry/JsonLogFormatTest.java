package dev.mcpx.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.ServeProcess;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code mcpx.logFormat: "json"}: {@code mcpx serve} logs one JSON object per line on stderr. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JsonLogFormatTest {

    @Test
    void serveLogsJsonLines(@TempDir Path dir) throws Exception {
        ObjectNode fake = Json.object().put("command", TestGateways.java());
        fake.putArray("args").add("-XX:TieredStopAtLevel=1").add("-cp").add(System.getProperty("java.class.path"))
                .add(StdioFakeServer.class.getName());
        ObjectNode file = Json.object();
        file.putObject("mcpx").put("logFormat", "json");
        file.putObject("mcpServers").set("fake", fake);
        Path config = dir.resolve("mcpx.json");
        Files.writeString(config, Json.write(file));

        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "-c", config.toString(), "--stdio")) {
            String line = serve.awaitStderr(Pattern.compile("^(\\{.*serving on stdio.*\\})$", Pattern.MULTILINE));
            JsonNode logged = Json.parse(line);
            assertThat(logged.path("level").asString()).isEqualTo("INFO");
            assertThat(logged.path("loggerName").asString()).isEqualTo("dev.mcpx.cli.ServeCommand");
            assertThat(logged.path("formattedMessage").asString()).isEqualTo("serving on stdio with 1 upstreams");
            assertThat(logged.path("timestamp").asLong()).isPositive();
        }
    }
}

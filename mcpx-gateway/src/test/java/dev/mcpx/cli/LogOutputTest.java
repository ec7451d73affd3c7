package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.ServeProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What {@code mcpx serve} writes on stderr, and that setting up its log costs no XML parsing. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogOutputTest {

    @Test
    void serveLogsTextLinesWithoutLoadingAnXmlParser(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("mcpx.json"), "{\"mcpServers\": {}}");
        Path classes = dir.resolve("classes.log");
        try (ServeProcess serve = ServeProcess.start(Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load:file=" + classes),
                "serve", "-c", config.toString(), "--stdio")) {
            String line = serve.awaitStderr(Pattern.compile("^(.*serving on stdio.*)$", Pattern.MULTILINE));
            assertThat(line).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  ServeCommand - serving on stdio with 0 upstreams");
        }
        assertThat(Files.readString(classes))
                .contains("dev.mcpx.cli.StderrLogConfigurator")
                .doesNotContain("ch.qos.logback.classic.joran.JoranConfigurator", "javax.xml.parsers.SAXParserFactory",
                        "ch.qos.logback.classic.PatternLayout ");
    }

    @Test
    void aLogbackConfigurationFileStillTakesOver(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("mcpx.json"), "{\"mcpServers\": {}}");
        Path logback = Files.writeString(dir.resolve("logback.xml"), """
                <configuration>
                  <appender name="STDERR" class="ch.qos.logback.core.ConsoleAppender">
                    <target>System.err</target>
                    <encoder><pattern>operator's format: %level %logger %msg%n</pattern></encoder>
                  </appender>
                  <root level="INFO"><appender-ref ref="STDERR"/></root>
                </configuration>
                """);
        try (ServeProcess serve = ServeProcess.start(Map.of("JAVA_TOOL_OPTIONS", "-Dlogback.configurationFile=" + logback),
                "serve", "-c", config.toString(), "--stdio")) {
            assertThat(serve.awaitStderr(Pattern.compile("^(.*serving on stdio.*)$", Pattern.MULTILINE)))
                    .isEqualTo("operator's format: INFO dev.mcpx.cli.ServeCommand serving on stdio with 0 upstreams");
        }
    }
}

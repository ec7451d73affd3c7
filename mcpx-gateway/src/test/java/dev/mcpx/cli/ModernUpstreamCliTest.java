package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** probe and call against an in-process 2026-07-28 upstream, and probe against a legacy one. */
class ModernUpstreamCliTest {

    @TempDir
    Path dir;
    private ModernHttpUpstream upstream;

    @BeforeEach
    void start() {
        upstream = ModernHttpUpstream.start();
    }

    @AfterEach
    void stop() {
        upstream.close();
        assertThat(upstream.headerMismatches()).isZero();
        assertThat(upstream.violations()).isEmpty();
    }

    private Path config(String reissueJson) throws IOException {
        ObjectNode root = Json.object();
        ObjectNode entry = root.putObject("mcpServers").putObject("modern");
        entry.put("url", upstream.url().toString());
        if (reissueJson != null) {
            entry.set("reissue", Json.parse(reissueJson));
        }
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, Json.write(root));
        return file;
    }

    @Test
    void probePrintsTheModernEraAndVersion() {
        CliRun run = CliRun.of("probe", upstream.url().toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("era:             modern")
                .contains("protocolVersion: 2026-07-28")
                .contains("server:          modern-test-upstream 1.0.0")
                .contains("tools:           6");
    }

    @Test
    void probePrintsTheLegacyEraAndVersion() {
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started()) {
            CliRun run = CliRun.of("probe", legacy.url().toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("era:             legacy").contains("protocolVersion: 2025-11-25");
        }
    }

    @Test
    void aCallWhoseStreamBreaksIsReissuedForAReadOnlyTool() throws IOException {
        upstream.breakStream("read_only_tool", 1);

        CliRun run = CliRun.of("call", "-c", config(null).toString(), "modern", "read_only_tool", "{\"text\":\"hi\"}");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("read_only_tool execution 2");
        assertThat(upstream.executions("read_only_tool")).isEqualTo(2);
    }

    @Test
    void aDestructiveCallWhoseStreamBreaksFailsAfterOneExecution() throws IOException {
        upstream.breakStream("destructive_tool", 1);

        CliRun run = CliRun.of("call", "-c", config(null).toString(), "modern", "destructive_tool");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("ended without a response");
        assertThat(upstream.executions("destructive_tool")).isEqualTo(1);
    }

    @Test
    void theConfigsReissueOverrideReachesTheClient() throws IOException {
        upstream.breakStream("destructive_tool", 1);

        CliRun run = CliRun.of("call", "-c", config("{\"destructive_tool\": \"always\"}").toString(), "modern", "destructive_tool");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(upstream.executions("destructive_tool")).isEqualTo(2);
    }
}

package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** {@code mcpx probe URL} and {@code mcpx call} against HTTP upstreams of both eras. */
class ProbeHttpTest {

    @TempDir
    Path dir;

    @Test
    void probeSaysModernForAModernUpstream() {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start()) {
            CliRun run = CliRun.of("probe", upstream.url().toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("era:             modern").contains("protocolVersion: 2026-07-28")
                    .contains("transport:       streamable-http");
            assertThat(run.out()).containsPattern("tools: +[1-9]");
        }
    }

    @Test
    void probeSaysLegacyForALegacyUpstream() {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started()) {
            CliRun run = CliRun.of("probe", upstream.url().toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("era:             legacy").contains("protocolVersion: 2025-11-25");
        }
    }

    @Test
    void callWorksAgainstALegacyUrlFromConfig() throws IOException {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started()) {
            ObjectNode root = Json.object();
            root.putObject("mcpServers").putObject("remote").put("url", upstream.url().toString());
            Path config = dir.resolve("mcpx.json");
            Files.writeString(config, Json.write(root));

            CliRun run = CliRun.of("call", "-c", config.toString(), "remote", "echo", "{\"text\":\"over http\"}");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("over http");
        }
    }

    @Test
    void probeOfAnUnreachableUrlExitsOne() {
        CliRun run = CliRun.of("probe", "http://127.0.0.1:1/mcp");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isNotBlank();
    }
}

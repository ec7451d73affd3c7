package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** {@code mcpx call} against a legacy HTTP upstream from config, and {@code probe} of a dead URL. */
class LegacyUpstreamCliTest {

    @TempDir
    Path dir;

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

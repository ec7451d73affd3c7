package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mcpx serve} refuses to start on a bad config or address, with exit code 2. */
class ServeCommandTest {

    @TempDir
    Path dir;

    @Test
    void aMissingConfigExitsTwoNamingTheFile() {
        CliRun run = CliRun.of("serve", "-c", dir.resolve("absent.json").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("absent.json").contains("no such file");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aBadEntryExitsTwoNamingTheEntryAndWhatIsWrong() throws IOException {
        Path file = Files.writeString(dir.resolve("mcpx.json"), "{\"mcpServers\": {\"remote\": {\"url\": \"ftp://x/mcp\"}}}");
        CliRun run = CliRun.of("serve", "--http", "127.0.0.1:0", "-c", file.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mcpx.json: mcpServers.remote: \"url\" must start with http:// or https://");
    }

    @Test
    void aBadListenAddressExitsTwo() throws IOException {
        Path file = Files.writeString(dir.resolve("mcpx.json"), "{\"mcpServers\": {}}");
        CliRun run = CliRun.of("serve", "--http", "localhost", "-c", file.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--http must be HOST:PORT");
    }

    @Test
    void stdioAndHttpAreExclusive() {
        CliRun run = CliRun.of("serve", "--stdio", "--http", "127.0.0.1:1");

        assertThat(run.exitCode()).isEqualTo(2);
    }
}

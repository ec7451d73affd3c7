package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code serve}'s security options as its model, built in code, reads them; a token never shows in their text. */
class HttpAccessOptionsTest {

    private static HttpAccessOptions parsed(String... serveArgs) {
        String[] args = new String[serveArgs.length + 1];
        args[0] = "serve";
        System.arraycopy(serveArgs, 0, args, 1, serveArgs.length);
        CommandLine.ParseResult result = Main.commandLine(args).parseArgs(args);
        return HttpAccessOptions.of(result.subcommand());
    }

    @Test
    void everyOptionIsReadWithItsType() {
        HttpAccessOptions options = parsed("--http", "0.0.0.0:8080", "--token-file", "t.txt", "--monitor-token-file", "m.txt",
                "--allow-unauthenticated", "--tls-cert", "c.pem", "--tls-key", "k.pem");

        assertThat(options).isEqualTo(new HttpAccessOptions(Path.of("t.txt"), null, Path.of("m.txt"), true,
                Path.of("c.pem"), Path.of("k.pem")));
        assertThat(parsed()).isEqualTo(new HttpAccessOptions(null, null, null, false, null, null));
    }

    @Test
    void theTokenNeverShowsInTheOptionsText() {
        HttpAccessOptions options = parsed("--token", "s3cret-token-value");

        assertThat(options.token()).isEqualTo("s3cret-token-value");
        assertThat(options.toString()).doesNotContain("s3cret-token-value").contains("token=given");
    }
}

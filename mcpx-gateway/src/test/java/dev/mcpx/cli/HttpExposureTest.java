package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.front.http.TestCertificates;
import dev.mcpx.gateway.ServeProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcpx serve --http} beyond this machine: refused without a token, served with one (from a
 * file, the environment or the config) or with the explicit opt-out, which warns; TLS from PEM.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HttpExposureTest {

    private static final Pattern LISTENING = Pattern.compile("listening on (https?)://\\S+:(\\d+)/mcp");
    private static final String SECRET = "t0ken-from-a-file-0123456789";

    @TempDir
    Path dir;

    private Path config;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void writeConfig() throws Exception {
        config = Files.writeString(dir.resolve("mcpx.json"), "{\"mcpServers\": {}}");
    }

    @Test
    void aBindBeyondLoopbackWithoutATokenExitsTwoSayingHowToSetOne() {
        CliRun run = CliRun.of("serve", "--http", "0.0.0.0:0", "-c", config.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("0.0.0.0:0 can be reached from other machines, and no token is set")
                .contains("--token-file FILE").contains("MCPX_TOKEN").contains(config.toString())
                .contains("--allow-unauthenticated");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void anOAuthProtectedFrontCountsAsAuthenticatedBeyondLoopback() throws Exception {
        Path oauth = Files.writeString(dir.resolve("oauth.json"), "{\"mcpServers\": {}, \"mcpx\": {\"auth\": {"
                + "\"issuer\": \"https://login.team.example\", \"resource\": \"https://mcp.team.example/mcp\"}}}");
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--http", "0.0.0.0:0", "-c", oauth.toString())
                .awaitListening()) {
            HttpResponse<String> refused = mcpPing(serve, null);
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.headers().firstValue("WWW-Authenticate").orElse("")).isEqualTo("Bearer resource_metadata="
                    + "\"https://mcp.team.example/.well-known/oauth-protected-resource/mcp\"");
            assertThat(status(serve, null).statusCode()).isEqualTo(401);
            assertThat(serve.stderr()).contains("OAuth access tokens from https://login.team.example")
                    .doesNotContain("WITHOUT authentication");
        }
    }

    @Test
    void anOAuthProtectedFrontBeyondLoopbackNeedsTheUrlHostsReachItAt() throws Exception {
        Path oauth = Files.writeString(dir.resolve("oauth.json"), "{\"mcpServers\": {}, \"mcpx\": {\"auth\": {"
                + "\"issuer\": \"https://login.team.example\"}}}");

        CliRun run = CliRun.of("serve", "--http", "0.0.0.0:0", "-c", oauth.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mcpx.auth has no \"resource\"").contains("https://mcp.example.com/mcp");
    }

    @Test
    void withAllowUnauthenticatedItServesAndWarns() throws Exception {
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--http", "0.0.0.0:0", "--allow-unauthenticated",
                "-c", config.toString()).awaitListening()) {
            assertThat(status(serve, null).statusCode()).isEqualTo(200);
            assertThat(serve.stderr()).contains("WARN").contains("WITHOUT authentication (--allow-unauthenticated)")
                    .contains("over plain HTTP");
        }
    }

    @Test
    void aTokenGivenByFileWorksAndIsNotInTheProcessCommandLine() throws Exception {
        Path tokenFile = Files.writeString(dir.resolve("token"), SECRET + "\n");
        Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--http", "0.0.0.0:0", "--token-file",
                tokenFile.toString(), "-c", config.toString()).awaitListening()) {
            String commandLine = Files.readString(Path.of("/proc", Long.toString(serve.process().pid()), "cmdline"),
                    StandardCharsets.UTF_8);
            assertThat(commandLine).contains(tokenFile.toString()).doesNotContain(SECRET);

            assertThat(status(serve, null).statusCode()).isEqualTo(401);
            assertThat(status(serve, "Bearer wrong").statusCode()).isEqualTo(401);
            assertThat(status(serve, "Bearer " + SECRET).statusCode()).isEqualTo(200);
            assertThat(mcpPing(serve, null).statusCode()).isEqualTo(401);
            assertThat(mcpPing(serve, "Bearer " + SECRET).statusCode()).isEqualTo(200);
            assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listening(serve).group(2)
                    + "/.well-known/oauth-protected-resource/mcp")).GET().build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).as("without mcpx.auth the metadata path is like any other").isEqualTo(401);
            assertThat(serve.stderr()).contains("bearer tokens: token-file").doesNotContain(SECRET)
                    .doesNotContain("WITHOUT authentication").doesNotContain("can be read by other users");
        }
    }

    @Test
    void aTokenFileOtherUsersCanReadIsAcceptedWithAWarning() throws Exception {
        Path tokenFile = Files.writeString(dir.resolve("shared-token"), SECRET);
        Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-r--r--"));
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--http", "127.0.0.1:0", "--token-file",
                tokenFile.toString(), "-c", config.toString()).awaitListening()) {
            assertThat(status(serve, "Bearer " + SECRET).statusCode()).isEqualTo(200);
            assertThat(serve.stderr()).contains("token file " + tokenFile + " can be read by other users: chmod 600");
        }
    }

    @Test
    void aTokenFromTheEnvironmentAllowsABindBeyondLoopback() throws Exception {
        try (ServeProcess serve = ServeProcess.start(Map.of("MCPX_TOKEN", SECRET), "serve", "--http", "0.0.0.0:0",
                "-c", config.toString()).awaitListening()) {
            assertThat(status(serve, null).statusCode()).isEqualTo(401);
            assertThat(status(serve, "Bearer " + SECRET).statusCode()).isEqualTo(200);
            assertThat(serve.stderr()).contains("bearer tokens: MCPX_TOKEN");
        }
    }

    @Test
    void monitoringEndpointsRefuseARequestWithoutATokenAndAMonitoringTokenReadsOnlyThem() throws Exception {
        Files.writeString(config, """
                {"mcpx": {"tokens": {"alice": "%s", "prometheus": {"token": "read-only-token", "scope": "monitor"}}},
                 "mcpServers": {}}""".formatted(SECRET));
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--http", "127.0.0.1:0", "-c", config.toString())
                .awaitListening()) {
            assertThat(status(serve, null).statusCode()).isEqualTo(401);
            assertThat(status(serve, "Bearer read-only-token").statusCode()).isEqualTo(200);
            assertThat(status(serve, "Bearer " + SECRET).statusCode()).isEqualTo(200);
            assertThat(mcpPing(serve, "Bearer read-only-token").statusCode()).isEqualTo(403);
            assertThat(mcpPing(serve, "Bearer " + SECRET).statusCode()).isEqualTo(200);
            assertThat(serve.stderr()).contains("bearer tokens: alice, prometheus (monitoring only)")
                    .doesNotContain("read-only-token");
        }
    }

    @Test
    void aTokenOnTheCommandLineStillWorksButWarns() throws Exception {
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--http", "127.0.0.1:0", "--token", SECRET,
                "-c", config.toString()).awaitListening()) {
            assertThat(status(serve, "Bearer " + SECRET).statusCode()).isEqualTo(200);
            assertThat(serve.stderr()).contains("WARN").contains("--token puts the token in the process list");
        }
    }

    @Test
    void tlsFromPemFilesOnTheCommandLine() throws Exception {
        TestCertificates.Issued issued = TestCertificates.issue(dir, "cli", "EC");
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--http", "127.0.0.1:0",
                "--tls-cert", issued.files().certificate().toString(), "--tls-key", issued.files().key().toString(),
                "-c", config.toString()).awaitListening()) {
            Matcher listening = listening(serve);
            assertThat(listening.group(1)).isEqualTo("https");
            HttpResponse<String> status = HttpClient.newBuilder().sslContext(issued.trustingClient()).build()
                    .send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + listening.group(2) + "/status")).build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(status.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aCertificateWithoutItsKeyExitsTwo() throws Exception {
        CliRun run = CliRun.of("serve", "--http", "127.0.0.1:0", "--tls-cert", dir.resolve("x.crt").toString(),
                "-c", config.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--tls-cert and --tls-key go together");
    }

    @Test
    void aKeyThatIsNotTheCertificatesExitsTwoNamingIt() throws Exception {
        TestCertificates.Issued one = TestCertificates.issue(dir, "one", "EC");
        TestCertificates.Issued other = TestCertificates.issue(dir, "other", "EC");
        CliRun run = CliRun.of("serve", "--http", "127.0.0.1:0", "--tls-cert", one.files().certificate().toString(),
                "--tls-key", other.files().key().toString(), "-c", config.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains(other.files().key().toString()).contains("does not belong to the certificate");
    }

    private static Matcher listening(ServeProcess serve) {
        Matcher matcher = LISTENING.matcher(serve.stderr());
        assertThat(matcher.find()).as(serve.stderr()).isTrue();
        return matcher;
    }

    private HttpResponse<String> status(ServeProcess serve, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listening(serve).group(2) + "/status"));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> mcpPing(ServeProcess serve, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listening(serve).group(2) + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}

package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.testkit.OAuthServer;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mcpx login} against a real OAuth authorization server (oauth2-mock-server), the
 * browser scripted through {@code $BROWSER} (curl following the redirects back to mcpx's
 * loopback listener); then {@code mcpx call} and {@code mcpx serve} use the stored token. The
 * upstream then expires the tokens it has seen, as their lifetime ending would: the next call is
 * refused with 401 and the token refreshed, and what the user sees is the tool's result.
 */
class OAuthLoginEndToEndTest {

    @TempDir
    Path dir;

    private OAuthServer authorizationServer;
    private ModernHttpUpstream upstream;
    private Path config;
    private Map<String, String> env;

    @BeforeEach
    void start() throws IOException {
        authorizationServer = OAuthServer.start(NodeTools.require());
        upstream = ModernHttpUpstream.start().requireBearer(authorizationServer.issuer());
        ObjectNode root = Json.object();
        root.putObject("mcpServers").putObject("remote").put("url", upstream.url().toString())
                .putObject("oauth").put("client_id", "mcpx-test");
        config = Files.writeString(dir.resolve("mcpx.json"), Json.write(root));
        Path browser = Files.writeString(dir.resolve("browser.sh"),
                "#!/bin/sh\nexec curl -sS -L -o /dev/null \"$1\"\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(browser, PosixFilePermissions.fromString("rwx------"));
        env = Map.of("MCPX_HOME", dir.resolve("home").toString(), "BROWSER", browser.toString());
    }

    @AfterEach
    void stop() {
        upstream.close();
        authorizationServer.close();
    }

    @Test
    void loginThenCallRefreshesTheExpiredTokenWithoutAnError() throws Exception {
        Run login = run("login", "-c", config.toString(), "remote", "--timeout", "60");
        assertThat(login.exit()).as(login.output() + authorizationServer.log()).isZero();
        assertThat(login.output()).contains("open this URL", "logged in to remote");
        Path tokens = dir.resolve("home/tokens.json");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokens))).isEqualTo("rw-------");
        assertThat(Files.readString(tokens)).contains("refresh_token");
        assertThat(authorizationServer.tokenRequests("authorization_code")).as(login.output() + authorizationServer.log())
                .isEqualTo(1);
        assertThat(authorizationServer.tokenRequests("refresh_token")).isZero();
        upstream.expireTokensSeen();

        Run call = run("call", "-c", config.toString(), "remote", "plain_tool", "{\"text\": \"hi\"}");

        assertThat(call.exit()).as(call.output()).isZero();
        assertThat(call.output()).contains("\"content\"").doesNotContain("\"isError\" : true");
        assertThat(authorizationServer.tokenRequests("refresh_token")).as("the expired token was refreshed once: "
                + login.output() + call.output() + authorizationServer.log()).isEqualTo(1);
        assertThat(upstream.executions("plain_tool")).isEqualTo(1);
    }

    @Test
    void serveWithoutALoginShowsNeedsLoginAndSaysToLogIn() throws Exception {
        try (ServeProcess serve = ServeProcess.start(env, "serve", "-c", config.toString(), "--http", "127.0.0.1:0")
                .awaitListening()) {
            HttpHost host = HttpHost.modern(serve.mcpUri());
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(remote(status(host, serve)).path("state").asString()).as(serve::stderr).isEqualTo("needs-login"));
            assertThat(remote(status(host, serve)).path("reason").asString()).contains("mcpx login remote");
            assertThat(host.request("tools/list", null).body()).doesNotContain("remote__plain_tool");
            Exchange refused = host.call("remote__plain_tool", Json.object().put("text", "hi"));
            assertThat(refused.body()).contains("needs an OAuth login", "mcpx login remote");
            assertThat(upstream.executions("plain_tool")).isZero();
            assertThat(authorizationServer.tokenRequests("authorization_code")).isZero();
        }
    }

    @Test
    void serveUsesTheLoggedInTokenAndRefreshesItWithoutAnErrorReachingTheHost() throws Exception {
        Run login = run("login", "-c", config.toString(), "remote", "--timeout", "60");
        assertThat(login.exit()).as(login.output()).isZero();
        try (ServeProcess serve = ServeProcess.start(env, "serve", "-c", config.toString(), "--http", "127.0.0.1:0")
                .awaitListening()) {
            HttpHost host = HttpHost.modern(serve.mcpUri());
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(host.request("tools/list", null).body()).as(serve::stderr).contains("remote__plain_tool"));
            assertThat(authorizationServer.tokenRequests("refresh_token")).isZero();
            upstream.expireTokensSeen();

            Exchange answered = host.call("remote__plain_tool", Json.object().put("text", "hi"));

            assertThat(answered.body()).as(serve.stderr()).contains("\"content\"").doesNotContain("\"error\"");
            assertThat(remote(status(host, serve)).path("state").asString()).isEqualTo("up");
            assertThat(authorizationServer.tokenRequests("refresh_token")).isEqualTo(1);
            assertThat(upstream.executions("plain_tool")).isEqualTo(1);
        }
    }

    private record Run(int exit, String output) {
    }

    /** {@code mcpx ARGS} as its own process (it reads $MCPX_HOME and $BROWSER), stdout and stderr together. */
    private Run run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(TestGateways.java(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "dev.mcpx.cli.Main"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static JsonNode remote(JsonNode status) {
        for (JsonNode entry : status.path("upstreams")) {
            if (entry.path("name").asString().equals("remote")) {
                return entry;
            }
        }
        throw new AssertionError("no upstream remote in " + status);
    }

    private static JsonNode status(HttpHost host, ServeProcess serve) throws Exception {
        return Json.parse(host.raw(HttpRequest.newBuilder(serve.statusUri()).GET().build()).body());
    }
}

package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.testkit.OAuthServer;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The unattended grants from the user's side: a config's {@code oauth} key, {@code mcpx call} as
 * its own process, a real authorization server (oauth2-mock-server, which takes the JWT bearer
 * grant and client credentials) and a protected upstream. No login, no browser.
 */
class OAuthMachineGrantsEndToEndTest {

    private static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

    @TempDir
    Path dir;

    private OAuthServer authorizationServer;
    private ModernHttpUpstream upstream;

    @BeforeEach
    void start() {
        authorizationServer = OAuthServer.start(NodeTools.require());
        upstream = ModernHttpUpstream.start().requireBearer(authorizationServer.issuer());
    }

    @AfterEach
    void stop() {
        upstream.close();
        authorizationServer.close();
    }

    @Test
    void aWorkloadJwtInAFileGetsTheTokenForACall() throws Exception {
        Files.writeString(dir.resolve("workload.jwt"), jwt("system:serviceaccount:ci:mcpx") + "\n");
        Path config = config(Json.object().put("grant", "jwt_bearer").put("assertion_file", "workload.jwt"));

        Run call = run("call", "-c", config.toString(), "remote", "plain_tool", "{\"text\": \"hi\"}");

        assertThat(call.exit()).as(call.output() + authorizationServer.log()).isZero();
        assertThat(call.output()).contains("\"content\"").doesNotContain("\"isError\" : true");
        assertThat(authorizationServer.tokenRequests(JWT_BEARER)).as(authorizationServer.log()).isEqualTo(1);
        assertThat(upstream.executions("plain_tool")).isEqualTo(1);
    }

    @Test
    void aRefusedWorkloadJwtSaysWhatTheServerSaidNotToLogIn() throws Exception {
        // no sub claim: the authorization server refuses the grant
        Files.writeString(dir.resolve("workload.jwt"), "eyJhbGciOiJub25lIn0.e30.x\n");
        Path config = config(Json.object().put("grant", "jwt_bearer").put("assertion_file", "workload.jwt"));

        Run call = run("call", "-c", config.toString(), "remote", "plain_tool", "{\"text\": \"hi\"}");

        assertThat(call.exit()).as(call.output()).isNotZero();
        assertThat(call.output()).as(call.output()).contains("token request").contains("HTTP 400")
                .contains("'sub' claim").doesNotContain("mcpx login");
        assertThat(authorizationServer.tokenRequests(JWT_BEARER)).as("no token issued").isZero();
        assertThat(upstream.executions("plain_tool")).isZero();
    }

    @Test
    void clientCredentialsWithAPrivateKeyFileGetTheTokenForACall() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        Files.writeString(dir.resolve("client.pem"), "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder()
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n");
        Path config = config(Json.object().put("grant", "client_credentials").put("client_id", "mcpx-ci")
                .put("private_key_file", "client.pem"));

        Run call = run("call", "-c", config.toString(), "remote", "plain_tool", "{\"text\": \"hi\"}");

        assertThat(call.exit()).as(call.output() + authorizationServer.log()).isZero();
        assertThat(authorizationServer.tokenRequests("client_credentials")).isEqualTo(1);
        assertThat(upstream.executions("plain_tool")).isEqualTo(1);
    }

    private Path config(ObjectNode oauth) throws Exception {
        ObjectNode root = Json.object();
        root.putObject("mcpServers").putObject("remote").put("url", upstream.url().toString()).set("oauth", oauth);
        return Files.writeString(dir.resolve("mcpx.json"), Json.write(root));
    }

    private static String jwt(String subject) {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        return base64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(("{\"sub\":\"" + subject + "\",\"exp\":" + (System.currentTimeMillis() / 1000 + 600)
                + "}").getBytes(StandardCharsets.UTF_8)) + ".x";
    }

    private record Run(int exit, String output) {
    }

    /** {@code mcpx ARGS} as its own process, its token store in the test's directory. */
    private Run run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(TestGateways.java(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "dev.mcpx.cli.Main"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(Map.of("MCPX_HOME", dir.resolve("home").toString()));
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}

package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.testkit.OAuthServer;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code mcpx doctor} as a child process whose HOME is a temp directory, so the hosts it reads are the test's. */
class DoctorCommandTest {

    @TempDir
    Path home;

    private record Run(int exitCode, String out) {
    }

    private Path config(boolean withBroken) throws IOException {
        ObjectNode root = Json.object();
        ObjectNode servers = root.putObject("mcpServers");
        List<String> fake = StdioFakeServer.command();
        ObjectNode good = servers.putObject("good").put("command", fake.getFirst());
        ArrayNode args = good.putArray("args");
        fake.subList(1, fake.size()).forEach(args::add);
        if (withBroken) {
            servers.putObject("broken").put("command", home.resolve("no-such-server").toString());
        }
        servers.putObject("resting").put("url", "http://127.0.0.1:1/mcp").put("enabled", false);
        Path file = home.resolve("mcpx.json");
        Files.writeString(file, Json.write(root));
        return file;
    }

    /** The config with one working upstream and these {@code mcpx} options. */
    private Path config(ObjectNode mcpx) throws IOException {
        Path file = config(false);
        ObjectNode root = (ObjectNode) Json.parse(Files.readString(file));
        root.set("mcpx", mcpx);
        Files.writeString(file, Json.write(root));
        return file;
    }

    private static ObjectNode auth(String issuer, String resource, String http) {
        ObjectNode mcpx = Json.object();
        if (http != null) {
            mcpx.put("http", http);
        }
        ObjectNode auth = mcpx.putObject("auth").put("issuer", issuer);
        if (resource != null) {
            auth.put("resource", resource);
        }
        return mcpx;
    }

    private Run doctor(Path config) throws Exception {
        List<String> command = new ArrayList<>(List.of(TestGateways.java(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "dev.mcpx.cli.Main", "doctor", "-c", config.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().keySet().removeAll(List.of("MCPX_CONFIG", "XDG_CONFIG_HOME", "APPDATA", "USERPROFILE"));
        builder.environment().put("HOME", home.toString());
        Process process = builder.start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), out);
    }

    @Test
    void aBrokenUpstreamAndAHostBypassingMcpxAreReportedWithWhatToFix() throws Exception {
        Path cursor = home.resolve(".cursor/mcp.json");
        Files.createDirectories(cursor.getParent());
        Files.writeString(cursor, "{\"mcpServers\": {\"mcpx\": {\"command\": \"/opt/mcpx/bin/mcpx\", \"args\": [\"serve\"]},"
                + " \"playwright\": {\"command\": \"npx\", \"args\": [\"@playwright/mcp@latest\"]}}}");
        Path windsurf = home.resolve(".codeium/windsurf/mcp_config.json");
        Files.createDirectories(windsurf.getParent());
        Files.writeString(windsurf, "{\"mcpServers\": {\"gateway\": {\"command\": \"mcpx\", \"args\": [\"serve\", \"-c\", \"/elsewhere/mcpx.json\"]}}}");

        Run run = doctor(config(true));

        assertThat(run.exitCode()).as(run.out()).isEqualTo(1);
        assertThat(run.out()).containsPattern("upstream  good: ok, stdio, (legacy|modern) \\S+, stdio-fake \\S+, \\d+ tools")
                .contains("upstream  broken: unreachable")
                .contains("upstream  resting: disabled")
                .contains("fix: broken (stdio) cannot be reached")
                .contains("host      cursor (" + cursor + "): starts playwright itself")
                .contains("fix: Cursor starts playwright without mcpx; run `mcpx setup cursor` to move them")
                .contains("fix: Windsurf's \"gateway\" serves /elsewhere/mcpx.json, not " + home.resolve("mcpx.json"))
                .doesNotContain("good cannot be reached");
    }

    @Test
    void aWorkingSetupHasNothingToFix() throws Exception {
        Path config = config(false);
        Path desktop = home.resolve(".config/Claude/claude_desktop_config.json");
        Files.createDirectories(desktop.getParent());
        Files.writeString(desktop, "{\"mcpServers\": {\"mcpx\": {\"command\": \"/opt/mcpx/bin/mcpx\", \"args\": [\"serve\", \"-c\", \""
                + config + "\"]}, \"off\": {\"command\": \"uvx\", \"args\": [\"x\"], \"disabled\": true}}}");

        Run run = doctor(config);

        assertThat(run.exitCode()).as(run.out()).isEqualTo(0);
        assertThat(run.out()).contains("upstream  good: ok").contains("nothing to fix").doesNotContain("fix:");
    }

    @Test
    void anAuthorizationServerThatAnswersAndAResourceAsTheFrontIsServedHaveNothingToFix() throws Exception {
        try (OAuthServer server = OAuthServer.start(NodeTools.require())) {
            String issuer = server.issuer().toString();

            Run run = doctor(config(auth(issuer, "http://127.0.0.1:8931/mcp", "127.0.0.1:8931")));

            assertThat(run.exitCode()).as(run.out()).isEqualTo(0);
            assertThat(run.out()).containsPattern("auth      issuer " + Pattern.quote(issuer) + ": metadata at "
                            + Pattern.quote(issuer) + "/\\.well-known/\\S+, jwks_uri \\S+, [1-9]\\d* signing keys")
                    .contains("auth      resource http://127.0.0.1:8931/mcp: ok")
                    .contains("nothing to fix");
        }
    }

    @Test
    void anIssuerWithoutMetadataAndAResourceOnAnotherPortAreReportedWithWhatToFix() throws Exception {
        try (OAuthServer server = OAuthServer.start(NodeTools.require())) {
            String issuer = server.issuer() + "/tenant-that-is-not";

            Run run = doctor(config(auth(issuer, "http://127.0.0.1:9999/mcp", "127.0.0.1:8931")));

            assertThat(run.exitCode()).as(run.out()).isEqualTo(1);
            assertThat(run.out())
                    .contains("fix: mcpx.auth.issuer " + issuer + " is not usable: no metadata for issuer " + issuer
                            + " names its keys; tried " + server.issuer() + "/.well-known/oauth-authorization-server/tenant-that-is-not")
                    .contains("fix: mcpx.auth.resource http://127.0.0.1:9999/mcp is not where hosts reach the front: "
                            + "it names port 9999 of 127.0.0.1, where the front binds port 8931 (mcpx.http)");
        }
    }

    @Test
    void aFrontForOtherMachinesWithoutAResourceIsToldToNameOne() throws Exception {
        try (OAuthServer server = OAuthServer.start(NodeTools.require())) {
            Run run = doctor(config(auth(server.issuer().toString(), null, "0.0.0.0:8931")));

            assertThat(run.exitCode()).as(run.out()).isEqualTo(1);
            assertThat(run.out()).contains("fix: mcpx.auth.resource is required: mcpx.http binds 0.0.0.0, beyond loopback")
                    .doesNotContain("fix: mcpx.auth.issuer");
        }
    }

    @Test
    void aResourceWithoutItsEndpointOrItsSchemeIsToldWhatTheFrontServes() throws Exception {
        try (OAuthServer server = OAuthServer.start(NodeTools.require())) {
            ObjectNode mcpx = auth(server.issuer().toString(), "http://127.0.0.1:8931", "127.0.0.1:8931");
            // doctor reads only the config: the files need not hold a certificate
            mcpx.putObject("tls").put("cert", "cert.pem").put("key", "key.pem");

            Run run = doctor(config(mcpx));

            assertThat(run.exitCode()).as(run.out()).isEqualTo(1);
            assertThat(run.out()).contains("fix: mcpx.auth.resource http://127.0.0.1:8931 is not where hosts reach the front: "
                    + "it names no endpoint, and hosts reach /mcp (e.g. http://127.0.0.1:8931/mcp); "
                    + "the front serves TLS (mcpx.tls), so hosts reach it at https");
        }
    }

    @Test
    void aConfigThatDoesNotLoadExitsTwoNamingIt() throws Exception {
        Path bad = Files.writeString(home.resolve("bad.json"), "{\"mcpServers\": {\"x\": {}}}");

        Run run = doctor(bad);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).contains(bad.toString()).contains("mcpServers.x");
    }
}

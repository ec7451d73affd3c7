package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An HTTP upstream behind a running {@code mcpx serve} is redeployed in the other era on the
 * same address, both ways; the host's calls carry on and {@code /status} shows the new era.
 */
class EraRedeployGatewayTest {

    private static final String ECHO = "{'name': 'echo', 'description': 'Echoes its arguments',"
            + " 'inputSchema': {'type': 'object', 'properties': {'text': {'type': 'string'}}}}";

    @TempDir
    Path dir;

    @Test
    void theHostsCallsCarryOnWhenTheUpstreamIsRedeployedInTheOtherEra() throws Exception {
        LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
        int upstreamPort = legacy.port();
        ModernHttpUpstream modern = null;
        LegacyHttpUpstream legacyAgain = null;
        ObjectNode root = Json.object();
        root.putObject("mcpServers").putObject("remote").put("url", legacy.url().toString());
        Path config = Files.writeString(dir.resolve("mcpx.json"), Json.write(root));
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "-c", config.toString(),
                "--http", "127.0.0.1:0").awaitListening()) {
            HttpHost host = HttpHost.modern(serve.mcpUri());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(host.request("tools/list", null).body()).as(serve::stderr).contains("remote__echo"));
            assertThat(host.call("remote__echo", Json.object().put("text", "legacy")).text()).isEqualTo("legacy");
            assertThat(remote(status(host, serve)).path("era").asString()).isEqualTo("legacy");

            legacy.close();
            modern = ModernHttpUpstream.startOn(upstreamPort).putEchoTool(ECHO.replace('\'', '"'));

            Exchange afterModern = host.call("remote__echo", Json.object().put("text", "modern"));
            assertThat(afterModern.text()).as(afterModern.body() + serve.stderr()).isEqualTo("echo execution 1");
            JsonNode status = remote(status(host, serve));
            assertThat(status.path("era").asString()).isEqualTo("modern");
            assertThat(status.path("protocolVersion").asString()).isEqualTo("2026-07-28");
            assertThat(status.path("eraChanges").asLong()).isEqualTo(1);
            assertThat(status.path("restarts").asLong()).as("the same client carried on").isZero();
            assertThat(serve.stderr()).contains("upstream now speaks modern");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(host.request("tools/list", null).body()).contains("remote__destructive_tool"));

            modern.close();
            legacyAgain = LegacyHttpUpstream.startedOn(upstreamPort);

            Exchange afterLegacy = host.call("remote__echo", Json.object().put("text", "legacy again"));
            assertThat(afterLegacy.text()).as(afterLegacy.body() + serve.stderr()).isEqualTo("legacy again");
            status = remote(status(host, serve));
            assertThat(status.path("era").asString()).isEqualTo("legacy");
            assertThat(status.path("eraChanges").asLong()).isEqualTo(2);
            assertThat(legacyAgain.executions("echo")).isEqualTo(1);
        } finally {
            legacy.close();
            if (modern != null) {
                modern.close();
            }
            if (legacyAgain != null) {
                legacyAgain.close();
            }
        }
    }

    @Test
    void twoEntriesForOneUrlShareOneProbe() throws Exception {
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started()) {
            ObjectNode root = Json.object();
            ObjectNode servers = root.putObject("mcpServers");
            servers.putObject("a").put("url", legacy.url().toString());
            servers.putObject("b").put("url", legacy.url().toString());
            Path config = Files.writeString(dir.resolve("mcpx.json"), Json.write(root));
            try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "-c", config.toString(),
                    "--http", "127.0.0.1:0").awaitListening()) {
                HttpHost host = HttpHost.modern(serve.mcpUri());
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(host.request("tools/list", null).body()).as(serve::stderr).contains("a__echo", "b__echo"));
                assertThat(host.call("b__echo", Json.object().put("text", "b")).text()).isEqualTo("b");

                assertThat(legacy.requests()).filteredOn(r -> "server/discover".equals(r.rpcMethod()))
                        .as("one modern probe for both entries").hasSize(1);
                assertThat(legacy.initializeCount()).isEqualTo(2);
            }
        }
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

package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.config.ConfigLoader;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A server key long enough that {@code <server>__<tool>} passes 64 characters: hosts see every
 * tool within 64 characters, each name its own, calls by the short name reach the right tool,
 * and the log, {@code /status} and {@code mcpx tools} say which full name each short one stands for.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LongToolNamesTest {

    /** 60 characters: longer than the 55 a shortened name keeps, so "echo" and "add" share that beginning. */
    private static final String SERVER = "acme-internal-knowledge-base-search-and-retrieval-connector-1";

    @TempDir
    Path dir;

    private Path config() throws Exception {
        ObjectNode root = Json.object();
        ObjectNode servers = root.putObject("mcpServers");
        ObjectNode fake = Json.object().put("command", TestGateways.java());
        ArrayNode args = fake.putArray("args");
        List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                StdioFakeServer.class.getName()).forEach(args::add);
        servers.set("short", fake.deepCopy());
        servers.set(SERVER, fake);
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, Json.write(root), StandardCharsets.UTF_8);
        return file;
    }

    /** The rule, written out independently: the first 55 characters, '_', 8 hex digits of SHA-256. */
    private static String expectedShortName(String full) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(full.getBytes(StandardCharsets.UTF_8));
        return full.substring(0, 55) + "_" + HexFormat.of().formatHex(digest).substring(0, 8);
    }

    @Test
    void hostsSeeShortDistinctNamesThatRouteToTheirToolsAndStatusShowsTheMapping() throws Exception {
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        Logger catalogueLog = (Logger) LoggerFactory.getLogger(Catalogue.class);
        logs.start();
        catalogueLog.addAppender(logs);
        Path file = config();
        try (Gateway gateway = Gateway.start(new ConfigLoader(Map.of()).load(file), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200))) {
            gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
            HttpHost host = HttpHost.legacy(front.mcpUri());
            host.initialize();
            JsonNode tools = host.request("tools/list", null).reply().path("result").path("tools");
            List<String> names = new ArrayList<>();
            tools.forEach(tool -> names.add(tool.path("name").asString()));

            // the same fake twice: every tool once under each server
            long perServer = names.stream().filter(name -> name.startsWith("short__")).count();
            assertThat(perServer).isGreaterThanOrEqualTo(10);
            assertThat(names).hasSize((int) (2 * perServer)).doesNotHaveDuplicates()
                    .allMatch(name -> name.matches("[A-Za-z0-9_-]{1,64}"), "fits the model APIs' tool-name rule");
            String echo = expectedShortName(SERVER + "__echo");
            String add = expectedShortName(SERVER + "__add");
            assertThat(names).contains(echo, add, "short__echo", "short__add");

            assertThat(host.call(echo, Json.object().put("text", "by its short name")).text())
                    .isEqualTo("Echo: by its short name");
            assertThat(host.call(add, Json.object().put("a", 2).put("b", 3)).text()).isEqualTo("5");

            HttpResponse<String> status = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + front.port() + "/status")).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode entries = Json.parse(status.body()).path("upstreams");
            JsonNode mapped = null;
            for (JsonNode entry : entries) {
                if (entry.path("name").asString().equals(SERVER)) {
                    mapped = entry.path("shortNames");
                } else {
                    assertThat(entry.has("shortNames")).isFalse();
                }
            }
            assertThat(mapped).isNotNull();
            assertThat(mapped.size()).isEqualTo((int) perServer);
            assertThat(mapped.path(echo).asString()).isEqualTo(SERVER + "__echo");

            assertThat(logs.list).anyMatch(event -> event.getFormattedMessage().contains(SERVER + "__echo")
                    && event.getFormattedMessage().contains(echo));
        } finally {
            catalogueLog.detachAppender(logs);
        }
    }

    @Test
    void mcpxToolsListsTheNamesHostsSeeAndWhatTheyStandFor() throws Exception {
        Path file = config();
        String echo = expectedShortName(SERVER + "__echo");

        CliRun run = CliRun.of("tools", "-c", file.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains(echo + "\tfake echo", "short__echo\tfake echo", echo + " = " + SERVER + "__echo");
        assertThat(run.out().lines().filter(line -> line.contains("\t")).map(line -> line.substring(0, line.indexOf('\t'))))
                .allMatch(name -> name.length() <= 64);

        CliRun json = CliRun.of("tools", "-c", file.toString(), "--json");
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(Json.parse(json.out()).findValuesAsString("name")).contains(echo).allMatch(name -> name.length() <= 64);
        assertThat(json.err()).contains(echo + " = " + SERVER + "__echo");
    }
}

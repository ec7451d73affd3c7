package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcpx.config.ConfigException;
import dev.mcpx.config.ConfigLoader;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.conformance.ConformanceUpstream;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stdio server that exits on any first request but {@code initialize} (the fake's
 * {@code --initialize-first}) still starts: the child that died on the probe is started again
 * and spoken to in legacy. {@code "era"} in the config pins the era, for stdio and HTTP.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PinnedEraTest {

    private static final String PROBE_EXIT = "exited during the server/discover probe";

    @TempDir
    Path dir;

    private static ObjectNode fake(ObjectNode servers, String name, String... flags) {
        ObjectNode entry = servers.putObject(name).put("command", TestGateways.java());
        ArrayNode args = entry.putArray("args");
        List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                StdioFakeServer.class.getName()).forEach(args::add);
        List.of(flags).forEach(args::add);
        return entry;
    }

    private Gateway start(ObjectNode root) throws Exception {
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, Json.write(root), StandardCharsets.UTF_8);
        return Gateway.start(new ConfigLoader(Map.of()).load(file), TestGateways.settings(), Map.of());
    }

    private static UpstreamStatus upOrFailed(Gateway gateway, String name) {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            UpstreamStatus status = gateway.pool().require(name).status();
            return status.state().equals("up") || status.reason() != null;
        });
        return gateway.pool().require(name).status();
    }

    @Test
    void aServerThatExitsOnTheProbeIsStartedAgainInLegacyAndServesCalls() throws Exception {
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        logs.start();
        root.addAppender(logs);
        ObjectNode config = Json.object();
        fake(config.putObject("mcpServers"), "strict", "--initialize-first");
        try (Gateway gateway = start(config);
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200))) {
            UpstreamStatus status = upOrFailed(gateway, "strict");
            assertThat(status.state()).as(String.valueOf(status.reason())).isEqualTo("up");
            assertThat(status.era()).isEqualTo("legacy");
            HttpHost host = HttpHost.legacy(front.mcpUri());
            host.initialize();
            assertThat(host.call("strict__echo", Json.object().put("text", "after the probe")).text())
                    .isEqualTo("Echo: after the probe");
            assertThat(logs.list).anyMatch(event -> event.getFormattedMessage().contains(PROBE_EXIT));
        } finally {
            root.detachAppender(logs);
        }
    }

    @Test
    void aPinnedEraIsSpokenWithoutAProbeOnStdio() throws Exception {
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        logs.start();
        root.addAppender(logs);
        ObjectNode config = Json.object();
        ObjectNode servers = config.putObject("mcpServers");
        fake(servers, "strict", "--initialize-first").put("era", "legacy");
        fake(servers, "new", "--era", "modern").put("era", "modern");
        try (Gateway gateway = start(config)) {
            UpstreamStatus strict = upOrFailed(gateway, "strict");
            assertThat(strict.state()).as(String.valueOf(strict.reason())).isEqualTo("up");
            assertThat(strict.era()).isEqualTo("legacy");
            UpstreamStatus modern = upOrFailed(gateway, "new");
            assertThat(modern.state()).as(String.valueOf(modern.reason())).isEqualTo("up");
            assertThat(modern.era()).isEqualTo("modern");
            // pinned: the first child was never probed, so it never died
            assertThat(logs.list).noneMatch(event -> event.getFormattedMessage().contains(PROBE_EXIT));
        } finally {
            root.detachAppender(logs);
        }
    }

    @Test
    void aPinnedEraOverHttpIsSpokenEvenWhereDetectionWouldChooseTheOther() throws Exception {
        try (ConformanceUpstream both = ConformanceUpstream.start();
             ConformanceUpstream legacyOnly = ConformanceUpstream.start(0, ConformanceUpstream.Eras.LEGACY_ONLY)) {
            ObjectNode config = Json.object();
            ObjectNode servers = config.putObject("mcpServers");
            servers.putObject("detected").put("url", both.url().toString());
            servers.putObject("pinned").put("url", both.url().toString()).put("era", "legacy");
            servers.putObject("wrong").put("url", legacyOnly.url().toString()).put("era", "modern");
            try (Gateway gateway = start(config)) {
                assertThat(upOrFailed(gateway, "detected").era()).isEqualTo("modern");
                UpstreamStatus pinned = upOrFailed(gateway, "pinned");
                assertThat(pinned.state()).as(String.valueOf(pinned.reason())).isEqualTo("up");
                assertThat(pinned.era()).isEqualTo("legacy");
                assertThat(pinned.protocolVersion()).isEqualTo("2025-11-25");
                UpstreamStatus wrong = upOrFailed(gateway, "wrong");
                assertThat(wrong.state()).isNotEqualTo("up");
                assertThat(wrong.reason()).contains("does not speak");
            }
        }
    }

    @Test
    void anUnknownEraOrAModernHttpSseEntryIsAConfigErrorNamingTheEntry() throws Exception {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"mcpServers\": {\"x\": {\"url\": \"http://127.0.0.1:1/mcp\", \"era\": \"2026\"}}}");
        assertThatThrownBy(() -> new ConfigLoader(Map.of()).load(file)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("mcpServers.x").hasMessageContaining("era").hasMessageContaining("legacy, modern");
        Files.writeString(file, "{\"mcpServers\": {\"y\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:1/sse\", \"era\": \"modern\"}}}");
        assertThatThrownBy(() -> new ConfigLoader(Map.of()).load(file)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("mcpServers.y").hasMessageContaining("legacy");
    }
}

package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcpx.client.Cancellation;
import dev.mcpx.config.ConfigLoader;
import dev.mcpx.config.FrontToken;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.Limits;
import dev.mcpx.config.TlsFiles;
import dev.mcpx.front.FrontLimits;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An edit of {@code mcpx.limits} while mcpx runs: upstream limits apply at once (the upstreams
 * restart with them), the front's stay as they were until mcpx restarts.
 */
class LimitsReloadTest {

    @TempDir
    Path dir;

    @Test
    void anEditedMessageLimitReachesTheUpstreamWhileTheFrontKeepsItsOwn() throws Exception {
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, config(null), StandardCharsets.UTF_8);
        try (Gateway gateway = Gateway.start(new ConfigLoader(Map.of()).load(file), TestGateways.settings(), Map.of())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> huge(gateway) instanceof JsonRpcMessage.Result);

            Files.writeString(file, config(8192), StandardCharsets.UTF_8);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                JsonRpcMessage answer = huge(gateway);
                assertThat(answer).isInstanceOf(JsonRpcMessage.ErrorResponse.class);
                assertThat(((JsonRpcMessage.ErrorResponse) answer).error().message()).contains("maxMessageBytes");
            });
            assertThat(gateway.config().limits().maxMessageBytes()).isEqualTo(8192);
            assertThat(gateway.frontLimits()).isEqualTo(FrontLimits.DEFAULTS);
        }
    }

    @Test
    void anEditedTokenIsLoggedAsNeedingARestartWithoutTheSecret() throws Exception {
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        Logger gatewayLog = (Logger) LoggerFactory.getLogger(Gateway.class);
        logs.start();
        gatewayLog.addAppender(logs);
        try (Gateway gateway = Gateway.start(TestGateways.config(), TestGateways.settings(), Map.of())) {
            gateway.reload(new GatewayConfig(Optional.empty(), List.of(),
                    List.of(new FrontToken("ci", "edited-secret", FrontToken.Scope.ALL)), Optional.empty(),
                    Limits.DEFAULTS, Optional.of(new TlsFiles(dir.resolve("a.crt"), dir.resolve("a.key")))));

            assertThat(logs.list).extracting(ILoggingEvent::getFormattedMessage)
                    .anyMatch(line -> line.contains("mcpx.token/mcpx.tokens changed (now: [ci]): restart mcpx serve"))
                    .anyMatch(line -> line.contains("mcpx.tls changed: restart mcpx serve"))
                    .noneMatch(line -> line.contains("edited-secret"));
        } finally {
            gatewayLog.detachAppender(logs);
        }
    }

    private static JsonRpcMessage huge(Gateway gateway) {
        ObjectNode params = Json.object().put("name", "fake__huge");
        params.putObject("arguments").put("bytes", 32 * 1024);
        return gateway.hostRequests().answer(new JsonRpcMessage.Request(RequestId.of(1), "tools/call", params),
                Era.LEGACY, null, new Cancellation());
    }

    private static String config(Integer maxMessageBytes) {
        ObjectNode root = Json.object();
        if (maxMessageBytes != null) {
            root.putObject("mcpx").putObject("limits").put("maxMessageBytes", maxMessageBytes);
        }
        ObjectNode fake = root.putObject("mcpServers").putObject("fake").put("command", TestGateways.java());
        ArrayNode args = fake.putArray("args");
        List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                StdioFakeServer.class.getName()).forEach(args::add);
        return Json.write(root);
    }
}

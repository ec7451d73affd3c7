package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.ConfigLoader;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stdio upstream's answer over {@code maxMessageBytes}, written the TypeScript SDK's way
 * ({@code {"result":...,"jsonrpc":"2.0","id":N}}, id last), fails its call at once naming the
 * limit; a line over the limit that names no request fails every call in flight. The request
 * timeout is set far beyond the host's own 60 s, so a call left to time out fails the test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OverLimitStdioAnswerTest {

    private static final int MAX_MESSAGE = 8192;

    private Path dir;
    private Gateway gateway;
    private HttpFront front;

    @BeforeAll
    void start() throws Exception {
        dir = Files.createTempDirectory("mcpx-over-limit");
        ObjectNode root = Json.object();
        root.putObject("mcpx").putObject("limits").put("maxMessageBytes", MAX_MESSAGE)
                .put("requestTimeoutMs", Duration.ofMinutes(30).toMillis());
        ObjectNode fake = root.putObject("mcpServers").putObject("ts").put("command", TestGateways.java());
        ArrayNode args = fake.putArray("args");
        List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                StdioFakeServer.class.getName(), "--id-last").forEach(args::add);
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, Json.write(root), StandardCharsets.UTF_8);
        gateway = Gateway.start(new ConfigLoader(Map.of()).load(file), TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
    }

    @AfterAll
    void stop() throws Exception {
        front.close();
        gateway.close();
        Files.deleteIfExists(dir.resolve("mcpx.json"));
        Files.deleteIfExists(dir);
    }

    private HttpHost host() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        return host;
    }

    @Test
    void anAnswerOverTheLimitWithItsIdLastFailsItsCallAtOnceNamingTheLimit() throws Exception {
        HttpHost host = host();
        assertThat(host.call("ts__echo", Json.object().put("text", "id last")).text()).isEqualTo("Echo: id last");

        HttpHost.Exchange huge = host.call("ts__huge", Json.object().put("bytes", 4 * MAX_MESSAGE));
        assertThat(huge.errorCode()).isEqualTo(-32603);
        assertThat(huge.reply().path("error").path("message").asString()).contains("maxMessageBytes");

        assertThat(host.call("ts__echo", Json.object().put("text", "still here")).text()).isEqualTo("Echo: still here");
        assertThat(gateway.pool().require("ts").status().restarts()).isZero();
    }

    @Test
    void aLineOverTheLimitThatNamesNoRequestFailsEveryCallInFlightAtOnce() throws Exception {
        HttpHost host = host();
        CompletableFuture<HttpHost.Exchange> sleeping = CompletableFuture.supplyAsync(() -> call(host, "ts__sleep",
                Json.object().put("ms", Duration.ofMinutes(30).toMillis())));
        await().atMost(Duration.ofSeconds(30)).until(() -> gateway.pool().require("ts").pendingRequests() == 1);

        HttpHost.Exchange anonymous = host.call("ts__echo",
                Json.object().put("chaos", "anonymous").put("size", 4 * MAX_MESSAGE));
        assertThat(anonymous.reply().path("error").path("message").asString()).contains("maxMessageBytes");
        HttpHost.Exchange slept = sleeping.get();
        assertThat(slept.reply().path("error").path("message").asString()).contains("maxMessageBytes");

        assertThat(host.call("ts__echo", Json.object().put("text", "carries on")).text()).isEqualTo("Echo: carries on");
    }

    @Test
    void anOverLongNotificationOfTheUpstreamsIsDroppedAndTheCallStillAnswers() throws Exception {
        HttpHost host = host();
        HttpHost.Exchange echo = host.call("ts__echo",
                Json.object().put("text", "after the noise").put("chaos", "oversized").put("size", 4 * MAX_MESSAGE));
        assertThat(echo.text()).isEqualTo("Echo: after the noise");
    }

    private static HttpHost.Exchange call(HttpHost host, String tool, ObjectNode arguments) {
        try {
            return host.call(tool, arguments);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

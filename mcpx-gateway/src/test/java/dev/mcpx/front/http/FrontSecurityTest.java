package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The front as an attacker meets it: a DNS-rebinding page (foreign {@code Host}, no
 * {@code Origin}), and an operator whose secrets (upstream Authorization headers, child env
 * values, the front's own token) must not show in {@code /status} or in any log line.
 */
class FrontSecurityTest {

    private static final String HEADER_SECRET = "hdr-secret-4b1d";
    private static final String ENV_SECRET = "env-secret-9c2e";
    private static final String FRONT_TOKEN = "front-token-77aa";

    @Test
    void aRebindingPageWithAForeignHostIsForbiddenEvenWithoutOrigin() throws Exception {
        try (Gateway gateway = Gateway.start(TestGateways.config(), TestGateways.settings(), Map.of());
             Closing front = new Closing(HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200)))) {
            int port = front.front().port();
            assertThat(rawGet(port, "/status", "evil.example:" + port)).startsWith("HTTP/1.1 403");
            assertThat(rawGet(port, "/status", "localhost:" + port)).startsWith("HTTP/1.1 200");
            assertThat(rawGet(port, "/status", "127.0.0.1:" + port)).startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void aFrontBeyondLoopbackWithoutATokenIsNotStartedUnlessAllowed() throws Exception {
        try (Gateway gateway = Gateway.start(TestGateways.config(), TestGateways.settings(), Map.of())) {
            assertThatThrownBy(() -> HttpFront.start(gateway, new InetSocketAddress("0.0.0.0", 0), HttpSecurity.NONE,
                    Duration.ofMillis(200))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0.0.0.0 is reachable from other machines");
            try (Closing open = new Closing(HttpFront.start(gateway, new InetSocketAddress("0.0.0.0", 0),
                    new HttpSecurity(List.of(), Optional.empty(), true), Duration.ofMillis(200)));
                 Closing guarded = new Closing(HttpFront.start(gateway, new InetSocketAddress("0.0.0.0", 0),
                         HttpSecurity.token(FRONT_TOKEN), Duration.ofMillis(200)))) {
                assertThat(rawGet(open.front().port(), "/status", "gateway.internal")).startsWith("HTTP/1.1 200");
                assertThat(rawGet(guarded.front().port(), "/status", "gateway.internal")).startsWith("HTTP/1.1 401");
            }
        }
    }

    @Test
    void aRefusalAnsweredBeforeTheBodyArrivedTellsTheClientTheConnectionCloses() throws Exception {
        try (Gateway gateway = Gateway.start(TestGateways.config(), TestGateways.settings(), Map.of());
             Closing guarded = new Closing(HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0),
                     HttpSecurity.token(FRONT_TOKEN), Duration.ofMillis(200)));
             Socket socket = new Socket("127.0.0.1", guarded.front().port())) {
            socket.setSoTimeout(10_000);
            String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + guarded.front().port() + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // the body is still to come, so the server closes after its answer: a client reusing the
            // connection, as java.net.http does unless told, would lose its next request
            String head = responseHead(socket.getInputStream());
            assertThat(head).startsWith("HTTP/1.1 401").containsIgnoringCase("Connection: close");
        }
    }

    private static String responseHead(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        return head.toString();
    }

    @Test
    void secretsNeverReachStatusOrLogs() throws Exception {
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Level level = root.getLevel();
        root.setLevel(Level.DEBUG);
        logs.start();
        root.addAppender(logs);
        UpstreamConfig remote = UpstreamConfig.of("remote", new UpstreamEndpoint.Http(
                URI.create("http://127.0.0.1:1/mcp"), Map.of("Authorization", "Bearer " + HEADER_SECRET),
                UpstreamEndpoint.HttpKind.AUTO));
        UpstreamConfig local = UpstreamConfig.of("local", new UpstreamEndpoint.Stdio("/nonexistent/mcp-server",
                List.of("--serve"), Map.of("API_KEY", ENV_SECRET), null, false));
        try (Gateway gateway = Gateway.start(TestGateways.config(remote, local), TestGateways.settings(), Map.of());
             Closing front = new Closing(HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.token(FRONT_TOKEN),
                     Duration.ofMillis(200)))) {
            await().atMost(Duration.ofSeconds(20)).until(() -> gateway.status().stream()
                    .allMatch(status -> status.reason() != null));
            String status = rawGet(front.front().port(), "/status", "127.0.0.1", "Bearer " + FRONT_TOKEN);
            assertThat(status).startsWith("HTTP/1.1 200").contains("remote", "local");
            assertThat(status).doesNotContain(HEADER_SECRET, ENV_SECRET, FRONT_TOKEN);
            assertThat(gateway.config().toString()).doesNotContain(HEADER_SECRET, ENV_SECRET, FRONT_TOKEN);
        } finally {
            root.detachAppender(logs);
            root.setLevel(level);
        }
        assertThat(logs.list).isNotEmpty();
        for (ILoggingEvent event : logs.list) {
            String line = event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(event.getThrowableProxy()));
            assertThat(line).doesNotContain(HEADER_SECRET, ENV_SECRET, FRONT_TOKEN);
        }
    }

    private static String rawGet(int port, String path, String host, String... authorization) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            String auth = authorization.length == 0 ? "" : "Authorization: " + authorization[0] + "\r\n";
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n" + auth + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private record Closing(HttpFront front) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            front.close();
        }
    }
}

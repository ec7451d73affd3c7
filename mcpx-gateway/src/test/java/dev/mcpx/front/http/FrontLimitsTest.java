package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the front does with hosts that send too much or send junk: a clear error, and nothing else breaks. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FrontLimitsTest {

    private Gateway gateway;
    private HttpFront front;

    @BeforeAll
    void start() throws Exception {
        gateway = Gateway.start(TestGateways.config(TestGateways.fake("fake")), TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
    }

    @AfterAll
    void stop() throws Exception {
        front.close();
        gateway.close();
    }

    @Test
    void junkOnALegacySessionGetsAJsonRpcErrorAndTheSessionCarriesOn() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();
        HttpResponse<String> junk = host.raw(HttpRequest.newBuilder(front.mcpUri())
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", host.sessionId()).header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ")).build());
        assertThat(junk.statusCode()).isEqualTo(400);
        assertThat(Json.parse(junk.body()).path("error").path("code").asInt()).isEqualTo(-32700);
        HttpResponse<String> notAMessage = host.raw(HttpRequest.newBuilder(front.mcpUri())
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", host.sessionId()).header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString("[1, 2, 3]")).build());
        assertThat(notAMessage.statusCode()).isEqualTo(400);
        assertThat(Json.parse(notAMessage.body()).path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(host.request("ping", null).reply().has("result")).isTrue();
    }

    /** The same rule as the stdio front: -32700 only for a body that does not parse. */
    @ParameterizedTest
    @ValueSource(strings = {"[]", "42", "{\"jsonrpc\": \"1.0\", \"method\": \"ping\"}", "{\"jsonrpc\": \"2.0\"}"})
    void validJsonThatIsNoRequestIsAnInvalidRequest(String body) throws Exception {
        HttpResponse<String> refused = HttpHost.legacy(front.mcpUri()).raw(HttpRequest.newBuilder(front.mcpUri())
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(Json.parse(refused.body()).path("error").path("code").asInt()).isEqualTo(-32600);
    }

    @Test
    void aChunkedBodyOverTheLimitIs413WithoutBeingReadWhole() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", front.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = ("100000\r\n" + "x".repeat(0x100000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 17; i++) {
                try {
                    out.write(chunk);
                    out.flush();
                } catch (java.io.IOException refusedTheRest) {
                    break;
                }
            }
            InputStream in = socket.getInputStream();
            String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(head).isEqualTo("HTTP/1.1 413");
        }
    }

    @Test
    void anOversizedHeaderIs431() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", front.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "a".repeat(64 * 1024)
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String head = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(head).isEqualTo("HTTP/1.1 431");
        }
    }
}

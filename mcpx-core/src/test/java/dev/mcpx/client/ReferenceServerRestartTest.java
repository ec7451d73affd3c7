package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The official reference server ({@code server-everything streamableHttp}) killed and started
 * again on the same port: the same client carries on (it answers the stale session with
 * {@code 400 Bad Request: No valid session ID provided}).
 */
class ReferenceServerRestartTest {

    private final NodeTools tools = NodeTools.require();
    private Process server;
    private McpClient client;

    @AfterEach
    void stopAll() throws InterruptedException {
        if (client != null) {
            client.close();
        }
        stop();
    }

    @Test
    void callsThroughTheSameClientSucceedAfterTheServerIsKilledAndStartedAgain() throws Exception {
        int port = freePort();
        start(port);
        client = McpClient.builder(new UpstreamEndpoint.Http(URI.create("http://127.0.0.1:" + port + "/mcp"), Map.of(),
                        UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("everything").protocolVersion(ProtocolVersion.V2025_11_25)
                .requestTimeout(Duration.ofSeconds(20)).build().connect();
        assertThat(echo("before")).isEqualTo("Echo: before");

        stop();
        start(port);

        assertThat(echo("after")).isEqualTo("Echo: after");
        assertThat(echo("and later")).isEqualTo("Echo: and later");
        assertThat(client.counters().snapshot().reinitializations()).isEqualTo(1);
    }

    private String echo(String message) {
        JsonNode result = client.callTool("echo", Json.object().put("message", message), RequestOptions.defaults());
        return result.path("content").path(0).path("text").asString();
    }

    private void start(int port) throws IOException, InterruptedException, java.util.concurrent.ExecutionException,
            java.util.concurrent.TimeoutException {
        server = tools.serverEverythingHttp(port).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        CompletableFuture<Void> ready = new CompletableFuture<>();
        Process started = server;
        Thread.ofVirtual().start(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(started.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = err.readLine()) != null) {
                    if (line.contains("listening on port")) {
                        ready.complete(null);
                    }
                }
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
            ready.completeExceptionally(new IllegalStateException("server-everything exited before it was ready"));
        });
        ready.get(30, TimeUnit.SECONDS);
    }

    private void stop() throws InterruptedException {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(5, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            server = null;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Recovery Phase 1 against the real reference server over Streamable HTTP: its process is
 * killed and a new one started on the same port; the same client heals without a restart.
 */
class EverythingRestartTest {

    private Process server;
    private McpClient client;

    @AfterEach
    void stop() throws InterruptedException {
        if (client != null) {
            client.close();
        }
        kill();
    }

    @Test
    void callsThroughTheSameClientSucceedAfterTheServerProcessIsReplaced() throws Exception {
        int port = freePort();
        start(port);
        UpstreamEndpoint.Http endpoint = new UpstreamEndpoint.Http(
                java.net.URI.create("http://127.0.0.1:" + port + "/mcp"), Map.of(), UpstreamEndpoint.HttpKind.AUTO);
        client = McpClient.builder(endpoint).name("everything").requestTimeout(Duration.ofSeconds(20)).build().connect();
        assertThat(client.server().era()).isEqualTo(Era.LEGACY);
        assertThat(echo("before")).contains("Echo: before");

        kill();
        start(port);

        assertThat(echo("after")).contains("Echo: after");
        assertThat(echo("again")).contains("Echo: again");
        assertThat(client.counters().snapshot().reinitializations()).isEqualTo(1);
        assertThat(client.counters().snapshot().errors()).isZero();
    }

    private String echo(String message) {
        JsonNode result = client.callTool("echo", Json.object().put("message", message), RequestOptions.defaults());
        return result.path("content").path(0).path("text").asString();
    }

    private void start(int port) throws IOException, InterruptedException, java.util.concurrent.ExecutionException, java.util.concurrent.TimeoutException {
        ProcessBuilder builder = NodeTools.require().serverEverythingHttp(port);
        builder.redirectErrorStream(true);
        server = builder.start();
        CompletableFuture<Void> listening = new CompletableFuture<>();
        Process started = server;
        Thread.ofVirtual().start(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.contains("listening on port")) {
                        listening.complete(null);
                    }
                }
                listening.completeExceptionally(new IllegalStateException("server-everything exited before listening"));
            } catch (IOException e) {
                listening.completeExceptionally(e);
            }
        });
        listening.get(30, TimeUnit.SECONDS);
    }

    private void kill() throws InterruptedException {
        if (server != null) {
            server.descendants().forEach(ProcessHandle::destroyForcibly);
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
            server = null;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

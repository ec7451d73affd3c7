package dev.mcpx.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.ServeProcess;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mcpx serve --stdio --metrics 127.0.0.1:0}: the gateway says where its metrics listener
 * is, and a call made over stdio shows in {@code /metrics}, in the Prometheus text format or in
 * OpenMetrics when the scraper asks for it.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StdioMetricsListenerTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aStdioGatewayServesItsMetricsOnTheListenerItNames(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("mcpx.json");
        ObjectNode fake = Json.object().put("command", TestGateways.java());
        fake.putArray("args").add("-XX:TieredStopAtLevel=1").add("-cp").add(System.getProperty("java.class.path"))
                .add(StdioFakeServer.class.getName());
        ObjectNode file = Json.object();
        file.putObject("mcpServers").set("fake", fake);
        Files.writeString(config, Json.write(file));

        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "-c", config.toString(), "--stdio",
                "--metrics", "127.0.0.1:0")) {
            URI metrics = URI.create(serve.awaitStderr(Pattern.compile("mcpx: metrics on (http\\S+/metrics)")));
            OutputStream in = serve.process().getOutputStream();
            BufferedReader out = new BufferedReader(new InputStreamReader(serve.process().getInputStream(), StandardCharsets.UTF_8));
            in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            // a child slow to start on a loaded machine is not in the catalogue yet: ask again until it answers
            JsonNode answer = null;
            for (int id = 2; id < 20 && (answer == null || !answer.has("result")); id++) {
                in.write(("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                        + "\"fake__echo\",\"arguments\":{\"text\":\"hi\"}}}\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                do {
                    answer = Json.parse(out.readLine());
                } while (answer.path("id").asInt() != id);
            }
            assertThat(answer.path("result").path("content").path(0).path("text").asString()).isEqualTo("Echo: hi");

            HttpResponse<String> text = http.send(HttpRequest.newBuilder(metrics).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(text.statusCode()).isEqualTo(200);
            assertThat(text.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                    assertThat(type).startsWith("text/plain; version=0.0.4"));
            assertThat(text.body()).containsPattern("mcp_server_operation_duration_seconds_count\\{error_type=\"\"[^}]*"
                    + "gen_ai_tool_name=\"fake__echo\"[^}]*network_transport=\"pipe\"[^}]*} 1")
                    .containsPattern("mcp_client_operation_duration_seconds_count\\{error_type=\"\"[^}]*"
                            + "gen_ai_tool_name=\"echo\"[^}]*mcpx_upstream=\"fake\"[^}]*} 1")
                    .contains("# TYPE mcpx_upstream_restarts_total counter");

            HttpResponse<String> openMetrics = http.send(HttpRequest.newBuilder(metrics)
                    .header("Accept", "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5").GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(openMetrics.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                    assertThat(type).startsWith("application/openmetrics-text"));
            assertThat(openMetrics.body()).contains("# UNIT mcp_client_operation_duration_seconds seconds")
                    .endsWith("# EOF\n");

            assertThat(http.send(HttpRequest.newBuilder(metrics.resolve("/mcp")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).as("the listener serves metrics only").isEqualTo(404);
        }
    }
}

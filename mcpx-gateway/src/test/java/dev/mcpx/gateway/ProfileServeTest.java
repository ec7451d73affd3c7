package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mcpx serve} as a process with {@code mcpx.profiles} in its config file: {@code --stdio
 * --profile NAME} serves that profile, an edit of the file reaches the host as list_changed, and
 * over HTTP {@code /mcp/NAME} serves it and {@code /status} lists it.
 */
class ProfileServeTest {

    @TempDir
    Path dir;

    @Test
    void serveStdioWithAProfileServesItAndAppliesEditsOfTheFileLive() throws Exception {
        Path config = config("{\"deny\": [\"one__touch\"]}");
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--stdio", "--profile", "review", "-c",
                config.toString())) {
            LineHost host = new LineHost(serve.process().getInputStream(), serve.process().getOutputStream());
            ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
            init.putObject("capabilities");
            init.putObject("clientInfo").put("name", "test-host").put("version", "1");
            host.request("initialize", init);
            host.notify("notifications/initialized", null);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(names(host.request("tools/list", null))).contains("one__echo"));
            assertThat(names(host.request("tools/list", null))).doesNotContain("one__touch")
                    .noneMatch(name -> name.startsWith("two__"));
            JsonNode refused = host.request("tools/call", Json.object().put("name", "two__echo")
                    .set("arguments", Json.object()));
            assertThat(refused.path("error").path("message").asString()).isEqualTo("Unknown tool: two__echo");

            Files.writeString(config, Files.readString(config).replace("{\"deny\": [\"one__touch\"]}",
                    "{\"allow\": [\"one__add\"]}"));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                JsonNode note = host.nextNotification(Duration.ofSeconds(1));
                return note != null && "notifications/tools/list_changed".equals(note.path("method").asString());
            });
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(names(host.request("tools/list", null))).containsExactly("one__add"));
            host.close();
        }
    }

    @Test
    void serveHttpServesProfilesAtTheirPathsAndListsThemInStatus() throws Exception {
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--http", "127.0.0.1:0", "-c",
                config("{\"deny\": [\"one__touch\"]}").toString()).awaitListening()) {
            HttpHost review = HttpHost.legacy(serve.mcpUri().resolve("/mcp/review"));
            review.initialize();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(names(review.request("tools/list", null).reply())).contains("one__echo"));
            assertThat(names(review.request("tools/list", null).reply())).noneMatch(name -> name.startsWith("two__"));
            HttpResponse<String> status = HttpClient.newHttpClient().send(HttpRequest.newBuilder(serve.statusUri())
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(Json.parse(status.body()).path("profiles").path(0).path("path").asString()).isEqualTo("/mcp/review");
            HttpResponse<String> unknown = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    serve.mcpUri().resolve("/mcp/nope")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(unknown.statusCode()).isEqualTo(404);
        }
    }

    private Path config(String toolsFilter) throws IOException {
        ObjectNode root = Json.object();
        ObjectNode servers = root.putObject("mcpServers");
        for (String name : List.of("one", "two")) {
            List<String> command = StdioFakeServer.command();
            ObjectNode entry = servers.putObject(name);
            entry.put("command", command.getFirst());
            command.subList(1, command.size()).forEach(entry.withArray("args")::add);
        }
        String text = Json.write(root).replaceFirst("^\\{", "{\"mcpx\": {\"profiles\": {\"review\": {\"servers\": [\"one\"], "
                + "\"tools\": " + toolsFilter + "}}}, ");
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, text);
        return file;
    }

    private static List<String> names(JsonNode reply) {
        List<String> names = new ArrayList<>();
        reply.path("result").path("tools").forEach(tool -> names.add(tool.path("name").asString()));
        return names;
    }
}

package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.EverythingHttpServer;
import dev.mcpx.testkit.NodeTools;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The "done means": the official reference server configured twice (stdio and HTTP)
 * behind a running {@code mcpx serve}; the HTTP upstream is killed and replaced on the same
 * port, the stdio child is SIGKILLed, and calls keep working without restarting the gateway.
 */
class EverythingGatewayTest {

    @TempDir
    Path dir;

    private NodeTools tools;
    private EverythingHttpServer httpUpstream;
    private Path config;

    @BeforeEach
    void setUp() throws Exception {
        tools = NodeTools.require();
        httpUpstream = EverythingHttpServer.start(tools);
        ObjectNode root = Json.object();
        ObjectNode servers = root.putObject("mcpServers");
        ObjectNode stdio = servers.putObject("stdio");
        List<String> command = tools.serverEverythingStdio();
        stdio.put("command", command.get(0));
        var args = stdio.putArray("args");
        command.subList(1, command.size()).forEach(args::add);
        servers.putObject("http").put("url", "http://localhost:" + httpUpstream.port() + "/mcp");
        config = Files.writeString(dir.resolve("mcpx.json"), Json.write(root));
    }

    @AfterEach
    void tearDown() {
        if (httpUpstream != null) {
            httpUpstream.close();
        }
    }

    private static JsonNode upstream(JsonNode status, String name) {
        for (JsonNode entry : status.path("upstreams")) {
            if (entry.path("name").asString().equals(name)) {
                return entry;
            }
        }
        throw new AssertionError("no upstream " + name + " in " + status);
    }

    private static ObjectNode message(String text) {
        return Json.object().put("message", text);
    }

    @Test
    void overHttpTheGatewayOutlivesItsUpstreams() throws Exception {
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "-c", config.toString(),
                "--http", "127.0.0.1:0").awaitListening()) {
            URI endpoint = serve.mcpUri();
            HttpHost host = HttpHost.legacy(endpoint);
            host.initialize();
            // the first list waits a bounded time; an upstream slower than that is announced later
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                List<String> names = new ArrayList<>();
                host.request("tools/list", null).reply().path("result").path("tools")
                        .forEach(tool -> names.add(tool.path("name").asString()));
                assertThat(names).as(serve::stderr).contains("stdio__echo", "http__echo", "stdio__get-sum");
            });
            assertThat(host.call("stdio__echo", message("one")).text()).contains("Echo: one");
            assertThat(host.call("http__echo", message("two")).text()).contains("Echo: two");

            httpUpstream.restart();
            Exchange afterRestart = host.call("http__echo", message("three"));
            assertThat(afterRestart.text()).as(afterRestart.body()).contains("Echo: three");
            assertThat(upstream(status(host, serve), "http").path("reinitializations").asLong()).isGreaterThanOrEqualTo(1);

            long pid = upstream(status(host, serve), "stdio").path("pid").asLong();
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(host.call("stdio__echo", message("four")).text()).contains("Echo: four"));
            JsonNode stdio = upstream(status(host, serve), "stdio");
            assertThat(stdio.path("restarts").asLong()).isGreaterThanOrEqualTo(1);
            assertThat(stdio.path("pid").asLong()).isNotEqualTo(pid);
        }
    }

    @Test
    void overStdioTheGatewayOutlivesItsUpstreams() throws Exception {
        List<ProcessHandle> children;
        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "--stdio", "-c", config.toString())) {
            LineHost host = new LineHost(serve.process().getInputStream(), serve.process().getOutputStream());
            ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
            init.putObject("capabilities");
            init.putObject("clientInfo").put("name", "pipe-host").put("version", "1");
            assertThat(host.request("initialize", init).path("result").path("serverInfo").path("name").asString()).isEqualTo("mcpx");
            host.notify("notifications/initialized", null);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(host.request("tools/list", null).path("result").path("tools").toString())
                            .contains("\"stdio__echo\"").contains("\"http__echo\""));
            assertThat(text(host.request("tools/call", call("http__echo", "a")))).contains("Echo: a");
            assertThat(text(host.request("tools/call", call("stdio__echo", "b")))).contains("Echo: b");
            ObjectNode modern = call("stdio__echo", "modern");
            modern.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                    .putObject("io.modelcontextprotocol/clientCapabilities");
            JsonNode modernReply = host.request("tools/call", modern);
            assertThat(text(modernReply)).as(modernReply.toString()).contains("Echo: modern");

            httpUpstream.restart();
            JsonNode afterRestart = host.request("tools/call", call("http__echo", "c"));
            assertThat(text(afterRestart)).as(afterRestart.toString()).contains("Echo: c");

            for (ProcessHandle child : serve.process().descendants().toList()) {
                if (child.info().commandLine().orElse("").contains(" stdio")) {
                    child.destroyForcibly();
                }
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(text(host.request("tools/call", call("stdio__echo", "d")))).contains("Echo: d"));
            children = serve.process().descendants().toList();
            assertThat(children).isNotEmpty();
            host.close();
            assertThat(serve.process().waitFor(20, TimeUnit.SECONDS)).as("serve exits when the host closes stdin").isTrue();
            assertThat(serve.process().exitValue()).isZero();
            // through restarts, a killed child and shutdown, stdout carried nothing but MCP messages
            assertThat(host.linesThatWereNotMcp(Duration.ofSeconds(10))).isEmpty();
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(children).noneMatch(ProcessHandle::isAlive));
    }

    private static ObjectNode call(String tool, String text) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", message(text));
        return params;
    }

    private static String text(JsonNode reply) {
        return reply.path("result").path("content").path(0).path("text").asString();
    }

    private static JsonNode status(HttpHost host, ServeProcess serve) throws Exception {
        return Json.parse(host.raw(HttpRequest.newBuilder(serve.statusUri()).GET().build()).body());
    }
}

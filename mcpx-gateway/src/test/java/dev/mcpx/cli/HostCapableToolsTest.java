package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.client.McpClient;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.ServeProcess;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ToolDescriptor;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.transport.UpstreamEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The reference server registers some tools only for clients that can use them. mcpx declares
 * upstream what its hosts can do (roots, sampling, both elicitation modes), so a host sees what a
 * capable client connected directly sees, but for a tool that can only run as a 2025-11-25 task
 * (which mcpx does not relay); and {@code mcpx tools} lists exactly what {@code serve} serves.
 */
@Timeout(value = 150, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostCapableToolsTest {

    private static final String URL_ELICITATION_TOOL = "trigger-url-elicitation";
    private static final String TASK_ONLY_TOOL = "simulate-research-query";

    @TempDir
    Path dir;

    @Test
    void hostsAndTheCliSeeWhatACapableDirectClientSeesButTaskOnlyTools() throws Exception {
        NodeTools tools = NodeTools.require();
        List<String> command = tools.serverEverythingStdio();
        ObjectNode root = Json.object();
        ObjectNode everything = root.putObject("mcpServers").putObject("everything");
        everything.put("command", command.getFirst());
        command.subList(1, command.size()).forEach(everything.withArray("args")::add);
        Path config = Files.writeString(dir.resolve("mcpx.json"), Json.write(root));

        Set<String> direct = direct(command);
        assertThat(direct).as("a capable client connected directly").contains(URL_ELICITATION_TOOL, TASK_ONLY_TOOL);
        Set<String> expected = new TreeSet<>(direct);
        expected.remove(TASK_ONLY_TOOL);

        try (ServeProcess serve = ServeProcess.start(Map.of(), "serve", "-c", config.toString(),
                "--http", "127.0.0.1:0").awaitListening()) {
            HttpHost host = HttpHost.modern(serve.mcpUri());
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(served(host)).as(serve::stderr).isNotEmpty());
            assertThat(served(host)).as("what serve serves").isEqualTo(expected);
        }

        CliRun run = CliRun.of("tools", "-c", config.toString(), "everything");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(new TreeSet<>(run.out().lines().map(line -> line.split("\t")[0]).toList()))
                .as("what mcpx tools lists").isEqualTo(expected);
    }

    /** A client declaring everything a capable host declares, straight to the server. */
    private static Set<String> direct(List<String> command) {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("roots").put("listChanged", true);
        capabilities.putObject("sampling");
        ObjectNode elicitation = capabilities.putObject("elicitation");
        elicitation.putObject("form");
        elicitation.putObject("url");
        UpstreamEndpoint.Stdio endpoint = new UpstreamEndpoint.Stdio(command.getFirst(),
                command.subList(1, command.size()), Map.of(), null, true);
        try (McpClient client = McpClient.builder(endpoint).capabilities(capabilities).build().connect()) {
            return new TreeSet<>(client.listTools().stream().map(ToolDescriptor::name).toList());
        }
    }

    private static Set<String> served(HttpHost host) throws Exception {
        List<String> names = new ArrayList<>();
        for (JsonNode tool : host.request("tools/list", null).reply().path("result").path("tools")) {
            names.add(tool.path("name").asString().replaceFirst("^everything__", ""));
        }
        return new TreeSet<>(names);
    }
}

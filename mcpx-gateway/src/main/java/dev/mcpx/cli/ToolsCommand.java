package dev.mcpx.cli;

import dev.mcpx.catalogue.ExposedName;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpxVersion;
import dev.mcpx.pool.ClientFactory;
import dev.mcpx.pool.ServedTools;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.NeedsLoginException;
import dev.mcpx.protocol.ToolDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ArrayNode;

/** {@code mcpx tools [-c FILE] [SERVER]}: the merged catalogue, or one upstream's tools. */
@Command(name = "tools", description = "List the tools of every configured server (as <prefix>__<tool>), or of one SERVER.")
final class ToolsCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Parameters(arity = "0..1", paramLabel = "SERVER", description = "Only this server's tools, with their original names.")
    String server;

    @Option(names = "--json", description = "Print the tool list as JSON.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
        Logging.quietUnlessAsked();
        GatewayConfig loaded = config.load();
        List<UpstreamConfig> targets = server == null ? loaded.enabled() : List.of(ConfigOption.upstream(loaded, server));
        List<Future<List<ToolDescriptor>>> listings = new ArrayList<>();
        ClientFactory clients = ClientFactory.standard(McpxVersion.current());
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (UpstreamConfig upstream : targets) {
                listings.add(threads.submit(() -> {
                    // the client serve would make: the same capabilities, so the same tools
                    try (McpClient client = clients.create(upstream, event -> { }).connect()) {
                        return ServedTools.of(upstream.name(), client.listTools().stream().map(ToolDescriptor::raw)
                                .toList()).stream().map(ToolDescriptor::from).toList();
                    }
                }));
            }
        }
        int exit = Main.OK;
        ArrayNode all = Json.array();
        List<String> shortened = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            UpstreamConfig upstream = targets.get(i);
            try {
                for (ToolDescriptor tool : listings.get(i).get()) {
                    ExposedName name = ExposedName.tool(upstream.prefix(), tool.name());
                    String shown = server == null ? name.shown() : tool.name();
                    if (server == null && name.isShortened()) {
                        shortened.add(name.shown() + " = " + name.full());
                    }
                    if (json) {
                        all.add(tool.raw().deepCopy().put("name", shown));
                    } else {
                        String description = Json.text(tool.raw(), "description");
                        System.out.println(description == null ? shown : shown + "\t" + firstLine(description));
                    }
                }
            } catch (ExecutionException e) {
                String why = e.getCause() instanceof McpException mcp ? mcp.getMessage() : String.valueOf(e.getCause());
                // the state /status shows for it, so a script reading either sees the same word
                System.err.println(e.getCause() instanceof NeedsLoginException ? "mcpx: needs-login: " + why
                        : "mcpx: " + upstream.name() + ": " + why);
                exit = Main.MCP_ERROR;
            }
        }
        if (json) {
            System.out.println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(all));
        }
        if (!shortened.isEmpty()) {
            // beside the list, not in it: --json stays one JSON document
            var notes = json ? System.err : System.out;
            notes.println((json ? "mcpx: " : "\n") + "names over " + ExposedName.MAX_TOOL_NAME
                    + " characters, shortened (as hosts see them = full name):");
            shortened.forEach(line -> notes.println("  " + line));
        }
        return exit;
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}

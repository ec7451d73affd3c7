package dev.mcpx.cli;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.protocol.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code mcpx call [-c FILE] SERVER TOOL [JSON-ARGS]}: one tool call, the result as JSON on stdout. */
@Command(name = "call", description = "Call one tool and print its result as JSON. Exit 1 when the result is an error.")
final class CallCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Parameters(index = "0", paramLabel = "SERVER")
    String server;

    @Parameters(index = "1", paramLabel = "TOOL", description = "The tool's original name (without prefix).")
    String tool;

    @Parameters(index = "2", arity = "0..1", paramLabel = "JSON-ARGS", description = "The arguments as a JSON object. Default: {}")
    String arguments;

    @Override
    public Integer call() {
        Logging.quietUnlessAsked();
        ObjectNode args = parseArguments();
        UpstreamConfig upstream = ConfigOption.upstream(config.load(), server);
        try (McpClient client = upstream.clientBuilder().build().connect()) {
            JsonNode result = client.callTool(tool, args, RequestOptions.defaults());
            System.out.println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(result));
            return result.path("isError").asBoolean(false) ? Main.MCP_ERROR : Main.OK;
        }
    }

    private ObjectNode parseArguments() {
        if (arguments == null || arguments.isBlank()) {
            return Json.object();
        }
        try {
            if (Json.parse(arguments) instanceof ObjectNode object) {
                return object;
            }
        } catch (JacksonException e) {
            throw new UsageException("JSON-ARGS is not JSON: " + e.getOriginalMessage());
        }
        throw new UsageException("JSON-ARGS must be a JSON object, like '{\"message\":\"hi\"}'");
    }
}

package dev.mcpx.cli;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ToolDescriptor;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a user's program does with a connected client: list and call tools, read resources, get
 * prompts. Each step prints one line to {@code out}; a tool result with {@code isError} is
 * recorded as a failure, a JSON-RPC error ends the run (it propagates).
 */
final class ScenarioActions {

    private final McpClient client;
    private final PrintStream out;
    private final List<String> failures = new ArrayList<>();

    ScenarioActions(McpClient client, PrintStream out) {
        this.client = client;
        this.out = out;
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    List<ToolDescriptor> listTools() {
        List<ToolDescriptor> tools = client.listTools();
        out.println("tools/list: " + tools.stream().map(ToolDescriptor::name).toList());
        return tools;
    }

    JsonNode callTool(String name, ObjectNode arguments) {
        JsonNode result = client.callTool(name, arguments, RequestOptions.defaults());
        boolean error = result.path("isError").asBoolean(false);
        out.println("tools/call " + name + (error ? ": tool error " : ": ") + Json.write(result.path("content")));
        if (error) {
            failures.add("tool " + name + " returned an error");
        }
        return result;
    }

    /**
     * What the server offers, each used once: the tools (see {@link #callEveryTool}), then the
     * resources and prompts when its capabilities declare them.
     */
    void useEverything(JsonNode toolCalls) {
        callEveryTool(toolCalls);
        ObjectNode capabilities = client.server().capabilities();
        if (capabilities != null && capabilities.has("resources")) {
            readEveryResource();
        }
        if (capabilities != null && capabilities.has("prompts")) {
            getEveryPrompt();
        }
    }

    /** The calls {@code toolCalls} asks for ({@code [{name, arguments}]}), else every listed tool with example arguments. */
    void callEveryTool(JsonNode toolCalls) {
        List<ToolDescriptor> tools = listTools();
        if (toolCalls.isArray() && !toolCalls.isEmpty()) {
            for (JsonNode call : toolCalls) {
                ObjectNode arguments = Json.objectAt(call, "arguments");
                callTool(Json.text(call, "name"), arguments == null ? Json.object() : arguments);
            }
            return;
        }
        for (ToolDescriptor tool : tools) {
            callTool(tool.name(), ExampleArguments.forSchema(tool.inputSchema()));
        }
    }

    void readEveryResource() {
        List<ObjectNode> resources = client.listResources();
        out.println("resources/list: " + resources.size() + " resources");
        for (ObjectNode resource : resources) {
            String uri = Json.text(resource, "uri");
            if (uri != null) {
                JsonNode read = client.request(Methods.RESOURCES_READ, Json.object().put("uri", uri));
                out.println("resources/read " + uri + ": " + read.path("contents").size() + " contents");
            }
        }
    }

    void getEveryPrompt() {
        List<ObjectNode> prompts = client.listPrompts();
        out.println("prompts/list: " + prompts.size() + " prompts");
        for (ObjectNode prompt : prompts) {
            String name = Json.text(prompt, "name");
            if (name == null) {
                continue;
            }
            ObjectNode params = Json.object().put("name", name);
            ObjectNode arguments = params.putObject("arguments");
            for (JsonNode argument : prompt.path("arguments")) {
                if (argument.path("required").asBoolean(false) && Json.text(argument, "name") != null) {
                    arguments.put(Json.text(argument, "name"), "example");
                }
            }
            JsonNode got = client.request(Methods.PROMPTS_GET, params);
            out.println("prompts/get " + name + ": " + got.path("messages").size() + " messages");
        }
    }

    /**
     * Sends the input schema of {@code source}, exactly as the client holds it, as the
     * {@code schema} argument of {@code echoTool}: shows what the client kept of the schema.
     */
    void echoSchema(String source, String echoTool) {
        ToolDescriptor tool = listTools().stream().filter(t -> t.name().equals(source)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the server lists no tool " + source));
        ObjectNode arguments = Json.object();
        arguments.set("schema", tool.inputSchema() == null ? Json.object() : tool.inputSchema());
        callTool(echoTool, arguments);
    }
}

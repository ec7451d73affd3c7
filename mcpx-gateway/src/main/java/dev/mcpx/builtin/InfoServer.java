package dev.mcpx.builtin;

import dev.mcpx.client.McpxVersion;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.ProtocolVersion;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The built-in upstream mcpx serves when no config exists: a small legacy stdio MCP server with
 * an {@code about} tool (what mcpx is, where its config goes) and an {@code echo} tool.
 * Argument: the config path to tell the user about.
 */
public final class InfoServer {

    private static final JsonRpcCodec CODEC = new JsonRpcCodec();

    private final String configPath;

    private InfoServer(String configPath) {
        this.configPath = configPath;
    }

    public static void main(String[] args) throws Exception {
        InfoServer server = new InfoServer(args.length > 0 ? args[0] : "~/.config/mcpx/mcpx.json");
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            JsonRpcMessage answer;
            try {
                answer = CODEC.decode(line) instanceof Request request ? server.answer(request) : null;
            } catch (MalformedMessageException e) {
                answer = new ErrorResponse(e.id(), JsonRpcError.of(ErrorCodes.PARSE_ERROR, e.getMessage()));
            }
            if (answer != null) {
                out.println(CODEC.encode(answer));
                out.flush();
            }
        }
    }

    private JsonRpcMessage answer(Request request) {
        return switch (request.method()) {
            case "initialize" -> new Result(request.id(), initialize(request.params()));
            case "ping" -> new Result(request.id(), Json.object());
            case "tools/list" -> new Result(request.id(), tools());
            case "tools/call" -> call(request);
            default -> new ErrorResponse(request.id(),
                    JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + request.method()));
        };
    }

    private static ObjectNode initialize(ObjectNode params) {
        String asked = Json.text(params, "protocolVersion");
        String version = ProtocolVersion.fromWire(asked == null ? "" : asked)
                .filter(v -> v.era() == dev.mcpx.protocol.Era.LEGACY)
                .orElse(ProtocolVersion.LATEST_LEGACY).wire();
        ObjectNode result = Json.object();
        result.put("protocolVersion", version);
        result.putObject("capabilities").putObject("tools");
        ObjectNode info = result.putObject("serverInfo");
        info.put("name", "mcpx-builtin");
        info.put("version", mcpxVersion());
        result.put("instructions", "mcpx's built-in server: call `about` to learn how to add your own MCP servers.");
        return result;
    }

    private static ObjectNode tools() {
        ObjectNode result = Json.object();
        var tools = result.putArray("tools");
        ObjectNode about = tools.addObject();
        about.put("name", "about");
        about.put("description", "What mcpx is, which version runs, and how to add MCP servers to it.");
        about.putObject("inputSchema").put("type", "object");
        about.putObject("annotations").put("readOnlyHint", true);
        ObjectNode echo = tools.addObject();
        echo.put("name", "echo");
        echo.put("description", "Echoes a message back: a quick way to check the gateway works end to end.");
        ObjectNode schema = echo.putObject("inputSchema");
        schema.put("type", "object");
        schema.putObject("properties").putObject("message").put("type", "string");
        schema.putArray("required").add("message");
        echo.putObject("annotations").put("readOnlyHint", true);
        return result;
    }

    private JsonRpcMessage call(Request request) {
        String name = Json.text(request.params(), "name");
        JsonNode arguments = request.params() == null ? null : request.params().get("arguments");
        if ("about".equals(name)) {
            return new Result(request.id(), text("mcpx " + mcpxVersion() + " (Java " + Runtime.version() + ")\n"
                    + "mcpx is a gateway: it serves the tools of many MCP servers as one.\n"
                    + "No config file was found, so only this built-in server runs.\n"
                    + "Add servers in " + configPath + " (or pass -c FILE, or set MCPX_CONFIG), in the mcpServers format\n"
                    + "Claude Desktop, Claude Code and Cursor use:\n"
                    + "{\"mcpServers\": {\"everything\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-everything\"]}}}"));
        }
        if ("echo".equals(name)) {
            JsonNode message = arguments == null ? null : arguments.get("message");
            return new Result(request.id(), text("Echo: " + (message == null ? "" : message.asString())));
        }
        return new ErrorResponse(request.id(), JsonRpcError.of(ErrorCodes.INVALID_PARAMS, "Unknown tool: " + name));
    }

    private static ObjectNode text(String text) {
        ObjectNode result = Json.object();
        ObjectNode content = result.putArray("content").addObject();
        content.put("type", "text");
        content.put("text", text);
        return result;
    }

    private static String mcpxVersion() {
        return McpxVersion.current();
    }
}

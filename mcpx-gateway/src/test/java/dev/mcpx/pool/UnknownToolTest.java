package dev.mcpx.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The "unknown tool" answers of real servers, which make mcpx read an upstream's tools again, and what is not one. */
class UnknownToolTest {

    @Test
    void theTypeScriptSdksAndTheReferenceServersErrorsAreUnknownTools() {
        assertThat(UnknownTool.in("tools/call", error(-32602, "MCP error -32602: Tool echo not found"))).isTrue();
        assertThat(UnknownTool.in("tools/call", error(-32602, "Unknown tool: echo"))).isTrue();
        assertThat(UnknownTool.in("tools/call", error(-32601, "Unknown tool: echo"))).isTrue();
    }

    @Test
    void thePythonSdksToolErrorResultIsAnUnknownTool() {
        assertThat(UnknownTool.in("tools/call", toolError("Unknown tool: echo"))).isTrue();
    }

    @Test
    void otherErrorsAndOtherMethodsAreNot() {
        assertThat(UnknownTool.in("tools/call", error(-32602, "Invalid arguments: text must be a string"))).isFalse();
        assertThat(UnknownTool.in("tools/call", error(-32603, "Unknown tool: echo"))).isFalse();
        assertThat(UnknownTool.in("prompts/get", error(-32602, "Unknown tool: echo"))).isFalse();
        assertThat(UnknownTool.in("tools/call", toolError("file not found"))).isFalse();
        assertThat(UnknownTool.in("tools/call", Json.object().put("isError", false))).isFalse();
    }

    private static McpErrorException error(int code, String message) {
        return new McpErrorException(JsonRpcError.of(code, message));
    }

    private static ObjectNode toolError(String text) {
        ObjectNode result = Json.object().put("isError", true);
        result.putArray("content").addObject().put("type", "text").put("text", text);
        return result;
    }
}

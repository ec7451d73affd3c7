package dev.mcpx.pool;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.Methods;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Whether an upstream's answer to {@code tools/call} says it has no such tool, in the shapes real
 * servers use: a JSON-RPC error {@code -32602} (the TypeScript SDK: "Tool x not found", the
 * reference servers: "Unknown tool: x"), or a tool error result with that text (the Python SDK
 * and FastMCP).
 */
final class UnknownTool {

    private UnknownTool() {
    }

    static boolean in(String method, McpErrorException error) {
        return Methods.TOOLS_CALL.equals(method)
                && (error.code() == ErrorCodes.INVALID_PARAMS || error.code() == ErrorCodes.METHOD_NOT_FOUND)
                && saysUnknown(error.error().message());
    }

    static boolean in(String method, JsonNode result) {
        return Methods.TOOLS_CALL.equals(method) && result != null && result.path("isError").asBoolean(false)
                && saysUnknown(result.path("content").path(0).path("text").asString(""));
    }

    private static boolean saysUnknown(String text) {
        String lower = text == null ? "" : text.toLowerCase(Locale.ROOT);
        return lower.contains("unknown tool") || lower.contains("tool") && lower.contains("not found");
    }
}

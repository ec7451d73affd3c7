package dev.mcpx.telemetry;

import dev.mcpx.protocol.AuthorizationRequiredException;
import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.NeedsLoginException;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.SessionExpiredException;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import tools.jackson.databind.JsonNode;

/**
 * {@code error.type} as the MCP semantic conventions define it: the JSON-RPC error code of an
 * error response, {@code tool_error} for a tool result with {@code isError}, else what failed.
 * Empty when the request succeeded.
 */
final class ErrorTypes {

    static final String NONE = "";

    private ErrorTypes() {
    }

    static String of(McpException error) {
        return switch (error) {
            case McpErrorException e -> Integer.toString(e.error().code());
            case SessionExpiredException e -> "session_expired";
            case StreamLostException e -> "stream_lost";
            case UpstreamUnavailableException e -> "upstream_unavailable";
            case RequestTimeoutException e -> "timeout";
            case RequestCancelledException e -> "cancelled";
            case HttpStatusException e -> "http_status";
            case AuthorizationRequiredException e -> "unauthorized";
            case NeedsLoginException e -> "needs_login";
        };
    }

    static String ofResult(JsonNode result) {
        return result != null && result.path("isError").asBoolean(false) ? "tool_error" : NONE;
    }
}

package dev.mcpx.transport;

import dev.mcpx.protocol.JsonRpcMessage;
import java.util.Map;

/**
 * One message to send, with the extra HTTP headers the client derived from things the transport
 * cannot know (the {@code Mcp-Param-*} headers of a tool's schema). Stdio ignores the headers.
 */
public record Outbound(JsonRpcMessage message, Map<String, String> headers) {

    public Outbound {
        headers = Map.copyOf(headers);
    }

    public static Outbound of(JsonRpcMessage message) {
        return new Outbound(message, Map.of());
    }
}

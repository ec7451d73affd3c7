package dev.mcpx.transport;

import dev.mcpx.protocol.JsonRpcMessage;
import java.time.Duration;
import java.util.Map;

/**
 * One message to send, with the extra HTTP headers the client derived from things the transport
 * cannot know (the {@code Mcp-Param-*} headers of a tool's schema). Stdio ignores the headers.
 *
 * @param timeout how long a request may wait for the upstream to start answering (the HTTP
 *                status line); null for no bound. Past it the transport throws
 *                {@link dev.mcpx.protocol.RequestTimeoutException}, so an upstream that
 *                accepts and never answers cannot hold the caller's thread forever.
 */
public record Outbound(JsonRpcMessage message, Map<String, String> headers, Duration timeout) {

    public Outbound {
        headers = Map.copyOf(headers);
    }

    public Outbound(JsonRpcMessage message, Map<String, String> headers) {
        this(message, headers, null);
    }

    public static Outbound of(JsonRpcMessage message) {
        return new Outbound(message, Map.of());
    }
}

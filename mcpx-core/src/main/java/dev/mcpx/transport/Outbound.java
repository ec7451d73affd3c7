package dev.mcpx.transport;

import dev.mcpx.protocol.JsonRpcMessage;
import java.time.Duration;
import java.util.Map;

/**
 * One message to send, with the extra HTTP headers the client derived from things the transport
 * cannot know (the {@code Mcp-Param-*} headers of a tool's schema). Stdio ignores the headers.
 *
 * @param timeout how long the transport may block while handing this message over (HTTP
 *                transports send requests asynchronously; a notification waits for its
 *                acknowledgement); null for no bound. An upstream that accepts and never
 *                answers then costs at most this, not the caller's thread.
 * @param senderCollects the sending thread calls {@link Transport#collect} for this request as
 *                soon as {@code send} returns, so a transport may leave the answer for that thread
 *                to read (no hand-off between threads on the hot path); false: the transport
 *                delivers the answer on threads of its own
 */
public record Outbound(JsonRpcMessage message, Map<String, String> headers, Duration timeout, boolean senderCollects) {

    public Outbound {
        headers = Map.copyOf(headers);
    }

    public Outbound(JsonRpcMessage message, Map<String, String> headers, Duration timeout) {
        this(message, headers, timeout, false);
    }

    public Outbound(JsonRpcMessage message, Map<String, String> headers) {
        this(message, headers, null);
    }

    public static Outbound of(JsonRpcMessage message) {
        return new Outbound(message, Map.of());
    }
}

package dev.mcpx.transport;

import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.RequestId;

/** What a transport reports to its client. */
public sealed interface TransportEvent {

    /**
     * A well-formed message from the upstream. {@code relatedTo} is the request whose response
     * stream carried it (a legacy POST's SSE stream), null when unknown.
     */
    record Received(JsonRpcMessage message, RequestId relatedTo) implements TransportEvent {

        public Received(JsonRpcMessage message) {
            this(message, null);
        }
    }

    /** Something arrived that is not a JSON-RPC message; it is dropped, the connection lives on. */
    record Undecodable(String excerpt, MalformedMessageException error) implements TransportEvent {
    }

    /** The stream that was to carry the response to {@code id} failed; the request gets {@code error}. */
    record RequestFailed(RequestId id, McpException error) implements TransportEvent {
    }

    /**
     * An answer the transport could not deliver (over the size limit) and whose request it
     * cannot tell: every pending request fails with {@code error} at once, the connection lives on.
     */
    record AnswerLost(McpException error) implements TransportEvent {
    }

    /** The upstream dropped a legacy session outside any request (e.g. the listen stream got 404). */
    record SessionExpired(String sessionId) implements TransportEvent {
    }

    /** The transport is dead (process exited, connection closed): every pending request fails. */
    record Closed(McpException cause) implements TransportEvent {
    }
}

package dev.mcpx.router;

import dev.mcpx.client.RecoveryTaken;
import dev.mcpx.protocol.McpException;
import java.net.URI;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The router's seam for telemetry and the audit log: each host request it sends to an upstream,
 * with the recoveries it got and how it ended. Called on the request's thread; must not block.
 */
public interface CallObserver {

    CallObserver NONE = (upstream, transport, address, protocolVersion, call, target) -> Routed.NONE;

    /**
     * {@code call} is about to go to {@code upstream} (its transport {@code stdio}, {@code http} or
     * {@code sse}, its URL, null for stdio, its protocol version, null before it connected);
     * {@code target} is the upstream's tool or prompt name, or the resource URI.
     */
    Routed routing(String upstream, String transport, URI address, String protocolVersion, HostCall call, String target);

    /**
     * One routed call in flight: shown the request before it is sent, told its recoveries, then
     * exactly one of {@code answered} or {@code failed}.
     */
    interface Routed {

        Routed NONE = new Routed() {
        };

        /** May set trace context in the upstream request's {@code _meta} (W3C {@code traceparent}). */
        default void sending(ObjectNode upstreamRequest) {
        }

        default void recovered(RecoveryTaken recovery) {
        }

        /** The upstream answered; {@code result} may be a tool result with {@code isError}. */
        default void answered(JsonNode result) {
        }

        default void failed(McpException error) {
        }
    }
}

package dev.mcpx.router;

import dev.mcpx.client.RecoveryTaken;
import dev.mcpx.protocol.McpException;
import tools.jackson.databind.JsonNode;

/**
 * The router's seam for telemetry and the audit log: each host request it sends to an upstream,
 * with the recoveries it got and how it ended. Called on the request's thread; must not block.
 */
public interface CallObserver {

    CallObserver NONE = (upstream, transport, protocolVersion, call, target) -> Routed.NONE;

    /**
     * {@code call} is about to go to {@code upstream} (its transport {@code stdio}, {@code http} or
     * {@code sse}, its protocol version, null before it connected); {@code target} is the upstream's
     * tool or prompt name, or the resource URI.
     */
    Routed routing(String upstream, String transport, String protocolVersion, HostCall call, String target);

    /** One routed call in flight: told its recoveries, then exactly one of {@code answered} or {@code failed}. */
    interface Routed {

        Routed NONE = new Routed() {
        };

        default void recovered(RecoveryTaken recovery) {
        }

        /** The upstream answered; {@code result} may be a tool result with {@code isError}. */
        default void answered(JsonNode result) {
        }

        default void failed(McpException error) {
        }
    }
}

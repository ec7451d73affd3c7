package dev.mcpx.front;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.Request;

/**
 * The fronts' seam for telemetry: what hosts asked and how long their answers took, and the
 * requests a limit turned away. Called on the request's thread; must not block.
 */
public interface HostObserver {

    HostObserver NONE = new HostObserver() {
    };

    /** {@code hostRequest} in {@code era} got {@code answer} after {@code nanos}. */
    default void answered(Request hostRequest, Era era, JsonRpcMessage answer, long nanos) {
    }

    /** A host request was refused by the operator's limit {@code limit} (e.g. {@code maxCallsPerHost}). */
    default void refused(String limit) {
    }
}

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

    /**
     * {@code hostRequest} in {@code era} begins ({@code hostSession}: the session's non-secret
     * name, null without one); the handle hears its answer on this same thread, and the calls
     * routed in between belong to it.
     */
    default Answering answering(Request hostRequest, Era era, String hostSession) {
        return Answering.NONE;
    }

    /** {@code hostRequest} in {@code era} got {@code answer} after {@code nanos}. */
    default void answered(Request hostRequest, Era era, JsonRpcMessage answer, long nanos) {
    }

    /**
     * A host's session in {@code protocolVersion} ended after {@code nanos}: a legacy HTTP session
     * from its initialize to its DELETE or expiry, a stdio host's from its first request to stdin's end.
     */
    default void sessionEnded(String protocolVersion, long nanos) {
    }

    /** A host request was refused by the operator's limit {@code limit} (e.g. {@code maxCallsPerHost}). */
    default void refused(String limit) {
    }

    /** One host request being answered. */
    interface Answering {

        Answering NONE = answer -> {
        };

        /** The answer (null: answering it failed inside mcpx). */
        void answered(JsonRpcMessage answer);

        /** The trace the request is recorded in, for its log lines (null: none). */
        default String traceId() {
            return null;
        }
    }
}

package dev.mcpx.front;

import dev.mcpx.protocol.JsonRpcMessage;

/** Where a host hears mcpx: a call's own stream, or the way to reach it outside any call. */
@FunctionalInterface
public interface HostChannel {

    /** Nowhere: for an answer that has nothing to say before it (no progress, no asks). */
    HostChannel NONE = message -> false;

    /** Sends {@code message}; false when the host cannot hear it now (gone, or no listen stream open). */
    boolean send(JsonRpcMessage message);
}

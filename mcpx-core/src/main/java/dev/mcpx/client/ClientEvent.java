package dev.mcpx.client;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.ProtocolVersion;
import tools.jackson.databind.node.ObjectNode;

/** What a client tells its embedding code about the upstream, outside any one request. */
public sealed interface ClientEvent {

    /** A list changed upstream ({@code list_changed}, or a re-initialize invalidated it). */
    record ListChanged(CatalogueKind kind) implements ClientEvent {
    }

    /** {@code notifications/resources/updated} for a subscribed resource. */
    record ResourceUpdated(ObjectNode params) implements ClientEvent {
    }

    /**
     * A log message from the upstream ({@code notifications/message}) that no request's log
     * consumer ({@link RequestOptions}) took: the session's own lines, each told once.
     */
    record Log(ObjectNode params) implements ClientEvent {
    }

    /** The session was replaced after the upstream restarted (recovery Phase 1). */
    record Reinitialized(long generation) implements ClientEvent {
    }

    /**
     * The upstream was redeployed in the other era and the client switched to it after one
     * re-probe; {@code version} is what it speaks now.
     */
    record EraChanged(Era from, Era to, ProtocolVersion version) implements ClientEvent {
    }

    /** The connection is gone for good (e.g. the stdio child exited). */
    record Closed(McpException cause) implements ClientEvent {
    }
}

package dev.mcpx.client;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ProtocolVersion;
import tools.jackson.databind.node.ObjectNode;

/** What the handshake (legacy) or discovery (modern) told about the upstream. */
public record ServerDescription(Era era, ProtocolVersion protocolVersion, ObjectNode serverInfo,
                                ObjectNode capabilities, String instructions) {

    public String name() {
        return serverInfo == null || !serverInfo.path("name").isString() ? "" : serverInfo.path("name").asString();
    }

    public String version() {
        return serverInfo == null || !serverInfo.path("version").isString() ? "" : serverInfo.path("version").asString();
    }
}

package dev.mcpx.front.http;

import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.router.LogLevel;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * What every replica needs to serve a legacy session: the negotiated version, the profile whose
 * path created it, the host's capabilities, the level it set and whether it sent {@code initialized}.
 *
 * @param profile      null for {@code /mcp}'s own
 * @param capabilities the host's {@code initialize} capabilities (may be null)
 * @param logLevel     null until the host sets one
 */
public record SharedSession(String id, ProtocolVersion version, String profile, ObjectNode capabilities,
                            LogLevel logLevel, boolean initialized) {

    public SharedSession {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(version, "version");
    }

    SharedSession withLogLevel(LogLevel level) {
        return new SharedSession(id, version, profile, capabilities, level, initialized);
    }

    SharedSession withInitialized() {
        return new SharedSession(id, version, profile, capabilities, logLevel, true);
    }
}

package dev.mcpx.front.http;

import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.router.LogLevel;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.node.ObjectNode;

/**
 * What every replica needs to serve a legacy session: the negotiated version, the profile whose
 * path created it, the host's capabilities, the level it set and whether it sent {@code initialized}.
 *
 * @param profile      null for {@code /mcp}'s own
 * @param capabilities the host's {@code initialize} capabilities (may be null)
 * @param logLevel     null until the host sets one
 * @param subscriptions the URIs of the resources the host subscribed to
 */
public record SharedSession(String id, ProtocolVersion version, String profile, ObjectNode capabilities,
                            LogLevel logLevel, boolean initialized, Set<String> subscriptions) {

    public SharedSession {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(version, "version");
        subscriptions = Set.copyOf(subscriptions);
    }

    SharedSession withLogLevel(LogLevel level) {
        return new SharedSession(id, version, profile, capabilities, level, initialized, subscriptions);
    }

    SharedSession withInitialized() {
        return new SharedSession(id, version, profile, capabilities, logLevel, true, subscriptions);
    }

    SharedSession withSubscription(String uri, boolean subscribed) {
        Set<String> uris = new TreeSet<>(subscriptions);
        if (subscribed) {
            uris.add(uri);
        } else {
            uris.remove(uri);
        }
        return new SharedSession(id, version, profile, capabilities, logLevel, initialized, uris);
    }
}

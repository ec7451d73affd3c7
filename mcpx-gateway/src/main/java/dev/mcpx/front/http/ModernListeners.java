package dev.mcpx.front.http;

import dev.mcpx.protocol.RequestId;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import tools.jackson.databind.node.ObjectNode;

/** The open {@code subscriptions/listen} streams of modern hosts, each with the filter it agreed and its profile. */
final class ModernListeners {

    /** {@code profile}: the profile whose path the stream was opened on (null: {@code /mcp}'s own). */
    record Listener(RequestId id, ObjectNode agreed, SseStream stream, String profile) {
    }

    private final Set<Listener> listeners = new CopyOnWriteArraySet<>();

    void add(Listener listener) {
        listeners.add(listener);
    }

    void remove(Listener listener) {
        listeners.remove(listener);
    }

    Set<Listener> all() {
        return listeners;
    }
}

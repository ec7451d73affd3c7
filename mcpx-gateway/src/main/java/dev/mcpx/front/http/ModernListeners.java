package dev.mcpx.front.http;

import dev.mcpx.front.Listen;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/** The open {@code subscriptions/listen} streams of modern hosts, each with the SSE response that carries it. */
final class ModernListeners {

    record Listener(Listen listen, SseStream stream) {
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

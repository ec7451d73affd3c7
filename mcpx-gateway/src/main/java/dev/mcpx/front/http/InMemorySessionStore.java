package dev.mcpx.front.http;

import dev.mcpx.router.LogLevel;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** Sessions of one process: no other replica can end them, and forgetting one here is its end. */
final class InMemorySessionStore implements HostSessionStore {

    private final Map<String, SharedSession> byId = new ConcurrentHashMap<>();

    @Override
    public void create(SharedSession session) {
        byId.put(session.id(), session);
    }

    @Override
    public Optional<SharedSession> touch(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    @Override
    public void initialized(String id) {
        byId.computeIfPresent(id, (key, session) -> session.withInitialized());
    }

    @Override
    public void logLevel(String id, LogLevel level) {
        byId.computeIfPresent(id, (key, session) -> session.withLogLevel(level));
    }

    @Override
    public void subscription(String id, String uri, boolean subscribed) {
        byId.computeIfPresent(id, (key, session) -> session.withSubscription(uri, subscribed));
    }

    @Override
    public boolean remove(String id) {
        return byId.remove(id) != null;
    }

    @Override
    public void forgotIdle(String id) {
        byId.remove(id);
    }

    @Override
    public void onRemovedElsewhere(Consumer<String> ended) {
    }

    @Override
    public void close() {
    }
}

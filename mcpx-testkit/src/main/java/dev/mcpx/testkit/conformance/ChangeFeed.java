package dev.mcpx.testkit.conformance;

import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The mutable part of the fixture catalogue (a tool and a prompt that come and go, a resource
 * that changes) and the subscribers told about it: legacy GET streams and modern listen streams.
 */
final class ChangeFeed {

    private final AtomicBoolean dynamicTool = new AtomicBoolean();
    private final AtomicBoolean dynamicPrompt = new AtomicBoolean();
    private final AtomicInteger watchedVersion = new AtomicInteger();
    private final Set<Consumer<Change>> subscribers = new CopyOnWriteArraySet<>();

    boolean hasDynamicTool() {
        return dynamicTool.get();
    }

    boolean hasDynamicPrompt() {
        return dynamicPrompt.get();
    }

    int watchedVersion() {
        return watchedVersion.get();
    }

    boolean toggleTool() {
        boolean present = !dynamicTool.get();
        dynamicTool.set(present);
        publish(Change.of(Change.Kind.TOOLS_LIST));
        return present;
    }

    boolean togglePrompt() {
        boolean present = !dynamicPrompt.get();
        dynamicPrompt.set(present);
        publish(Change.of(Change.Kind.PROMPTS_LIST));
        return present;
    }

    int updateWatched() {
        int version = watchedVersion.incrementAndGet();
        publish(new Change(Change.Kind.RESOURCE_UPDATED, Resources.WATCHED));
        return version;
    }

    void subscribe(Consumer<Change> subscriber) {
        subscribers.add(subscriber);
    }

    void unsubscribe(Consumer<Change> subscriber) {
        subscribers.remove(subscriber);
    }

    private void publish(Change change) {
        subscribers.forEach(subscriber -> subscriber.accept(change));
    }
}

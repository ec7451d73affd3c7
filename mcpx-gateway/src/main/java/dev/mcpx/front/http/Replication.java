package dev.mcpx.front.http;

/**
 * What the HTTP front shares with the other replicas of a cluster: its legacy sessions and its
 * list changes. Alone, it shares nothing and mcpx is one process.
 */
public record Replication(HostSessionStore sessions, ListChangeRelay lists) {

    public static Replication alone() {
        return new Replication(HostSessionStore.inMemory(), ListChangeRelay.ALONE);
    }
}

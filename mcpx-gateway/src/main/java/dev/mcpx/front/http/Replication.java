package dev.mcpx.front.http;

import java.util.Optional;

/**
 * What the HTTP front shares with the other replicas of a cluster: its legacy sessions, its list
 * changes, what hosts post about calls running elsewhere, and who the replicas are. Alone, it
 * shares nothing and mcpx is one process.
 */
public record Replication(HostSessionStore sessions, ListChangeRelay lists, HostMessageRelay hostMessages,
                          Optional<ClusterMembership> membership) {

    public static Replication alone() {
        return new Replication(HostSessionStore.inMemory(), ListChangeRelay.ALONE, HostMessageRelay.ALONE, Optional.empty());
    }
}

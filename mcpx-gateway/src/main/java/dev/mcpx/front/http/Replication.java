package dev.mcpx.front.http;

import java.util.Optional;

/**
 * What the HTTP front shares with the other replicas of a cluster: its legacy sessions, its list
 * changes, what hosts post about calls running elsewhere, who the replicas are, and the events of
 * legacy hosts' streams with the calls running on them. Alone, it shares nothing and mcpx is one
 * process.
 */
public record Replication(HostSessionStore sessions, ListChangeRelay lists, HostMessageRelay hostMessages,
                          Optional<ClusterMembership> membership, SharedStreams streams) {

    /** Without shared streams: a stream lives and dies with the replica that sent it. */
    public Replication(HostSessionStore sessions, ListChangeRelay lists, HostMessageRelay hostMessages,
                       Optional<ClusterMembership> membership) {
        this(sessions, lists, hostMessages, membership, SharedStreams.ALONE);
    }

    public static Replication alone() {
        return new Replication(HostSessionStore.inMemory(), ListChangeRelay.ALONE, HostMessageRelay.ALONE, Optional.empty());
    }
}

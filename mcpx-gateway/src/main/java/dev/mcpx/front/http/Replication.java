package dev.mcpx.front.http;

import dev.mcpx.router.HeldCallRelay;
import java.util.Optional;

/**
 * What the HTTP front shares with the other replicas of a cluster: its legacy sessions, its list
 * changes, what hosts post about calls running elsewhere, who the replicas are, the events of
 * legacy hosts' streams with the calls running on them, and modern hosts' retries of held calls. Alone, it shares nothing and mcpx is one
 * process.
 */
public record Replication(HostSessionStore sessions, ListChangeRelay lists, HostMessageRelay hostMessages,
                          Optional<ClusterMembership> membership, SharedStreams streams, HeldCallRelay heldCalls) {

    /** Without shared streams or held calls: those live and die with the replica that has them. */
    public Replication(HostSessionStore sessions, ListChangeRelay lists, HostMessageRelay hostMessages,
                       Optional<ClusterMembership> membership) {
        this(sessions, lists, hostMessages, membership, SharedStreams.ALONE, HeldCallRelay.ALONE);
    }

    public static Replication alone() {
        return new Replication(HostSessionStore.inMemory(), ListChangeRelay.ALONE, HostMessageRelay.ALONE, Optional.empty());
    }
}

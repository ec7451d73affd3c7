package dev.mcpx.front.http;

import java.util.List;

/** Who this replica is and which replicas of its cluster are alive: shown on {@code /status}. */
public interface ClusterMembership {

    String replica();

    /** The replicas that announced themselves lately, this one included, by name; fails with {@link SessionStoreException}. */
    List<String> members();
}

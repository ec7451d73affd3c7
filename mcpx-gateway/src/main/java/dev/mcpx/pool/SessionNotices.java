package dev.mcpx.pool;

import tools.jackson.databind.node.ObjectNode;

/** What an upstream's current session says outside any call, passed on by the pool to its listeners. */
interface SessionNotices {

    /** A {@code notifications/resources/updated}: the upstream's name and the notification's params. */
    void resourceUpdated(String upstream, ObjectNode params);

    /** A {@code notifications/message} that no call took: the upstream's name and the line's params. */
    void logged(String upstream, ObjectNode params);
}

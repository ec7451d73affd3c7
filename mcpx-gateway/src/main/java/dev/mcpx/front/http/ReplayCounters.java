package dev.mcpx.front.http;

import java.util.concurrent.atomic.AtomicLong;

/** What the legacy front's resumable streams did and hold, for {@code /status}. */
final class ReplayCounters {

    final AtomicLong resumptions = new AtomicLong();
    final AtomicLong replayedEvents = new AtomicLong();
    final AtomicLong refusedResumptions = new AtomicLong();
    final AtomicLong evictedEvents = new AtomicLong();
    /** Results of calls whose host never came back for them within the grace period. */
    final AtomicLong droppedResults = new AtomicLong();
    /** Events kept right now across all sessions, and their bytes: what resuming costs in memory. */
    final AtomicLong keptEvents = new AtomicLong();
    final AtomicLong keptBytes = new AtomicLong();
}

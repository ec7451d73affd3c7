package dev.mcpx.client;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Recovery Phase 1: one re-initialize per upstream restart, however many requests hit the
 * dead session at once. A request remembers the session generation it was sent in; the first
 * caller to report that generation dead re-initializes under the lock, the others wait on the
 * lock and then find the generation already moved on.
 */
final class SessionRecovery {

    private final ReentrantLock lock = new ReentrantLock();
    private volatile long generation;

    long generation() {
        return generation;
    }

    /** Waits while a re-initialize is under way, so no request leaves without a session. */
    void awaitSettled() {
        if (lock.isLocked() && !lock.isHeldByCurrentThread()) {
            lock.lock();
            lock.unlock();
        }
    }

    boolean isRecovering() {
        return lock.isHeldByCurrentThread();
    }

    /**
     * Re-initializes unless a newer generation already replaced {@code seenGeneration}.
     * Returns true when this call did the re-initialize.
     */
    boolean recover(long seenGeneration, Runnable reinitialize) {
        lock.lock();
        try {
            if (generation != seenGeneration) {
                return false;
            }
            reinitialize.run();
            generation++;
            return true;
        } finally {
            lock.unlock();
        }
    }
}

package dev.mcpx.client;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * Recovery Phase 1: one re-initialize per upstream restart, however many requests hit the
 * dead session at once. A request remembers the session generation it was sent in; the first
 * caller to report that generation dead re-initializes, the others wait and then find the
 * generation already moved on.
 *
 * <p>Sends hold the read side of a lock and the re-initialize holds the write side, so no
 * request leaves without a session while a re-initialize is under way: it waits for it.
 */
final class SessionRecovery {

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile long generation;

    long generation() {
        return generation;
    }

    /** Runs {@code send} with the generation it goes out in, never during a re-initialize. */
    void send(LongConsumer send) {
        lock.readLock().lock();
        try {
            send.accept(generation);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Runs {@code reprobe} (an era re-probe) with no request being sent, unless
     * {@code stillNeeded} says by then that another caller already did. Returns true when this
     * call ran it; when it replaced the connection (returned true) the generation moves on, as
     * after a re-initialize.
     */
    boolean replace(BooleanSupplier stillNeeded, BooleanSupplier reprobe) {
        lock.writeLock().lock();
        try {
            if (!stillNeeded.getAsBoolean()) {
                return false;
            }
            if (reprobe.getAsBoolean()) {
                generation++;
            }
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Re-initializes unless a newer generation already replaced {@code seenGeneration}.
     * Returns true when this call did the re-initialize.
     */
    boolean recover(long seenGeneration, Runnable reinitialize) {
        lock.writeLock().lock();
        try {
            if (generation != seenGeneration) {
                return false;
            }
            reinitialize.run();
            generation++;
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }
}

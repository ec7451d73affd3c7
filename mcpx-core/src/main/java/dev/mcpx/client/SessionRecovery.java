package dev.mcpx.client;

import dev.mcpx.protocol.RequestCancelledException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
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
 * request leaves without a session while a re-initialize is under way: it waits for it, but no
 * longer than its own deadline.
 *
 * <p>A generation that a re-initialize made is <em>proven</em> once any request sent in it got
 * a response. Losing an unproven one is not a restart but a condition of the upstream (it
 * rejects sessions right after handing them out): {@link #recover} refuses to re-initialize for
 * it, and {@link Recovery} backs off instead.
 */
final class SessionRecovery {

    /** What {@link #recover} did. */
    enum Outcome {
        /** This call re-initialized: the generation moved on. */
        REINITIALIZED,
        /** Another caller already replaced the dead generation: just retry. */
        ALREADY_REPLACED,
        /** The dead generation was fresh and never answered a request: no re-initialize. */
        LOST_RIGHT_AFTER_INITIALIZE
    }

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile long generation;
    private volatile long proven = -1;

    long generation() {
        return generation;
    }

    /** A request sent in {@code sentIn} got a response: that session works. */
    void answered(long sentIn) {
        if (sentIn > proven) {
            synchronized (this) {
                proven = Math.max(proven, sentIn);
            }
        }
    }

    /**
     * Whether losing {@code sentIn} is a condition rather than a restart: it is still the
     * current generation, a re-initialize (or re-probe) made it, and no request in it was answered.
     */
    boolean lostRightAfterInitialize(long sentIn) {
        return sentIn == generation && sentIn > 0 && proven < sentIn;
    }

    /** Runs {@code send} with the generation it goes out in, never during a re-initialize. */
    void send(Deadline deadline, LongConsumer send) {
        Lock read = lock.readLock();
        acquire(read, deadline);
        try {
            send.accept(generation);
        } finally {
            read.unlock();
        }
    }

    /**
     * Runs {@code reprobe} (an era re-probe) with no request being sent, unless
     * {@code stillNeeded} says by then that another caller already did. Returns true when this
     * call ran it; when it replaced the connection (returned true) the generation moves on, as
     * after a re-initialize.
     */
    boolean replace(Deadline deadline, BooleanSupplier stillNeeded, BooleanSupplier reprobe) {
        Lock write = lock.writeLock();
        acquire(write, deadline);
        try {
            if (!stillNeeded.getAsBoolean()) {
                return false;
            }
            if (reprobe.getAsBoolean()) {
                generation++;
            }
            return true;
        } finally {
            write.unlock();
        }
    }

    /**
     * Re-initializes unless a newer generation already replaced {@code seenGeneration}, or the
     * dead generation was lost right after its initialize.
     */
    Outcome recover(long seenGeneration, Deadline deadline, Runnable reinitialize) {
        Lock write = lock.writeLock();
        acquire(write, deadline);
        try {
            if (generation != seenGeneration) {
                return Outcome.ALREADY_REPLACED;
            }
            if (lostRightAfterInitialize(seenGeneration)) {
                return Outcome.LOST_RIGHT_AFTER_INITIALIZE;
            }
            reinitialize.run();
            generation++;
            return Outcome.REINITIALIZED;
        } finally {
            write.unlock();
        }
    }

    /** Re-initializes whatever the generation (a condition's probe); the new generation is unproven. */
    long reinitializeNow(Deadline deadline, Runnable reinitialize) {
        Lock write = lock.writeLock();
        acquire(write, deadline);
        try {
            reinitialize.run();
            return ++generation;
        } finally {
            write.unlock();
        }
    }

    private static void acquire(Lock lock, Deadline deadline) {
        try {
            if (!lock.tryLock(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS)) {
                throw deadline.expired();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("interrupted while waiting for a re-initialize");
        }
    }
}

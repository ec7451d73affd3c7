package dev.mcpx.front.http;

import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The one clock of every open response's JSON window and keep-alives: a thread that looks every
 * {@link #TICK} for what is due while anything is pending, and parks when nothing is. Scheduling
 * is a queue append and cancelling sets a flag, so a call answered within its window (most of
 * them) neither wakes a timer thread nor takes a lock, as one timer task per call did
 * (2.5-4% of the gateway's CPU, and a context switch a call). Due times run up to a tick late.
 */
final class KeepAliveClock {

    static final Duration TICK = Duration.ofMillis(10);

    /** One pending action; a cancelled one stays queued until due, holding nothing, and is then skipped. */
    static final class Due {
        private final long atNanos;
        private volatile Runnable action;

        private Due(long atNanos, Runnable action) {
            this.atNanos = atNanos;
            this.action = action;
        }

        void cancel() {
            action = null;
        }
    }

    /** Per delay, in the order scheduled: entries with one delay fall due in that order, so only heads are looked at. */
    private final Map<Long, Queue<Due>> byDelay = new ConcurrentHashMap<>();
    private final AtomicBoolean parked = new AtomicBoolean();
    private final Thread ticker;

    KeepAliveClock(String name) {
        ticker = Thread.ofPlatform().name(name).daemon().unstarted(this::tick);
        ticker.start();
    }

    /** Runs {@code action} on a virtual thread of its own (a write to a slow host blocks) about {@code delay} from now. */
    Due schedule(Duration delay, Runnable action) {
        long delayNanos = delay.toNanos();
        Due due = new Due(System.nanoTime() + delayNanos, action);
        byDelay.computeIfAbsent(delayNanos, d -> new ConcurrentLinkedQueue<>()).add(due);
        if (parked.get() && parked.compareAndSet(true, false)) {
            LockSupport.unpark(ticker);
        }
        return due;
    }

    private void tick() {
        while (true) {
            if (pending()) {
                LockSupport.parkNanos(TICK.toNanos());
                long now = System.nanoTime();
                for (Queue<Due> queue : byDelay.values()) {
                    runDue(queue, now);
                }
            } else {
                parked.set(true);
                // an entry queued before the flag was up did not unpark this thread: look again first
                if (!pending()) {
                    LockSupport.park(this);
                }
                parked.set(false);
            }
        }
    }

    private static void runDue(Queue<Due> queue, long now) {
        for (Due head = queue.peek(); head != null && head.atNanos - now <= 0; head = queue.peek()) {
            queue.poll();
            Runnable action = head.action;
            if (action != null) {
                Thread.ofVirtual().name("mcpx-sse-keepalive").start(action);
            }
        }
    }

    /** Whether the clock's thread waits for something to be scheduled (it does once nothing is pending). */
    boolean parked() {
        return parked.get();
    }

    private boolean pending() {
        for (Queue<Due> queue : byDelay.values()) {
            if (!queue.isEmpty()) {
                return true;
            }
        }
        return false;
    }
}

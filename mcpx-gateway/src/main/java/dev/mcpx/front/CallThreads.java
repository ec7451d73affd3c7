package dev.mcpx.front;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a front answers host calls on: an idle platform thread when there is one, or a new
 * one up to a limit, else the overflow (virtual threads). A call then waits for its upstream's
 * answer parked on a platform thread, which the upstream's reader wakes directly; a virtual thread
 * is woken through the JDK's scheduler, and its blocking writes to a pipe go through a compensating
 * carrier (measured: 3-4 context switches and about a third of the CPU per call fewer). Calls
 * beyond the limit, such as many waiting on a slow upstream, take the overflow and hold no one.
 */
public final class CallThreads implements Executor {

    /** How long an idle platform thread is kept: an idle gateway gives its threads back. */
    public static final Duration KEEP_IDLE = Duration.ofSeconds(30);

    private final ThreadPoolExecutor platform;

    /** At most {@code platform} platform threads named {@code name}-N, then {@code overflow}. */
    public CallThreads(int platform, String name, Executor overflow) {
        AtomicInteger started = new AtomicInteger();
        // a SynchronousQueue hands a task only to an idle thread; with none and none to start, it overflows
        this.platform = new ThreadPoolExecutor(0, platform, KEEP_IDLE.toSeconds(), TimeUnit.SECONDS,
                new SynchronousQueue<>(), task -> {
                    Thread thread = new Thread(task, name + "-" + started.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                }, (task, refusedBy) -> overflow.execute(task));
    }

    @Override
    public void execute(Runnable task) {
        platform.execute(task);
    }

    /** Platform threads alive now, busy or idle. */
    public int platformThreads() {
        return platform.getPoolSize();
    }

    /** Platform threads running a task now. */
    public int busyPlatformThreads() {
        return platform.getActiveCount();
    }

    /** No new task gets a platform thread (it takes the overflow); running ones finish, idle ones end. */
    public void shutdown() {
        platform.shutdown();
    }
}

package dev.mcpx.front.http;

import java.time.Duration;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.TryExecutor;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * The HTTP front's threads: a task runs on an idle platform thread when there is one, or on a new
 * one up to {@code platform}, else on a virtual thread. A host call then reads its upstream's answer
 * with a plain blocking read on the thread Jetty woke for it, where a virtual thread parks and is
 * woken through the JDK's poller and scheduler (measured: about 4 context switches per call instead
 * of 7-10, and 30-40% less CPU); calls beyond {@code platform} that wait on a slow upstream take
 * virtual threads, so they cannot keep other hosts waiting.
 */
final class FrontThreads extends ContainerLifeCycle implements ThreadPool, TryExecutor {

    /** How long an idle platform thread is kept: an idle gateway gives its threads back. */
    static final Duration KEEP_IDLE = Duration.ofSeconds(30);

    private final ThreadPoolExecutor platform;
    private final VirtualThreadPool overflow;

    /** {@code platform} platform threads at most, then up to {@code virtual} virtual threads at once. */
    FrontThreads(int platform, int virtual) {
        overflow = new VirtualThreadPool(virtual);
        overflow.setName("mcpx-http-v");
        addBean(overflow);
        AtomicInteger started = new AtomicInteger();
        // a SynchronousQueue hands a task only to an idle thread; with none and none to start, it is refused
        this.platform = new ThreadPoolExecutor(0, platform, KEEP_IDLE.toSeconds(), TimeUnit.SECONDS,
                new SynchronousQueue<>(), task -> {
                    Thread thread = new Thread(task, "mcpx-http-" + started.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                }, (task, refusedBy) -> overflow.execute(task));
    }

    @Override
    public void execute(Runnable task) {
        platform.execute(task);
    }

    /** Always: a task can always have a thread, which lets Jetty run a request on the thread that read it. */
    @Override
    public boolean tryExecute(Runnable task) {
        execute(task);
        return true;
    }

    @Override
    public void join() throws InterruptedException {
        overflow.join();
    }

    @Override
    public int getThreads() {
        return platform.getPoolSize() + overflow.getThreads();
    }

    @Override
    public int getIdleThreads() {
        return platform.getPoolSize() - platform.getActiveCount();
    }

    /** Never: past the platform threads, every task still gets a virtual one. */
    @Override
    public boolean isLowOnThreads() {
        return false;
    }

    /** Platform threads running a task now (tests). */
    int busyPlatformThreads() {
        return platform.getActiveCount();
    }

    @Override
    protected void doStop() throws Exception {
        platform.shutdown();
        super.doStop();
    }
}

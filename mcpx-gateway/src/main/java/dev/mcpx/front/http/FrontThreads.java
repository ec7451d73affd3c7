package dev.mcpx.front.http;

import dev.mcpx.front.CallThreads;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.TryExecutor;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * The HTTP front's threads for Jetty: {@link CallThreads}, whose overflow is Jetty's
 * {@link VirtualThreadPool}, so tasks beyond the platform threads (calls waiting on a slow upstream)
 * take virtual threads, up to {@code virtual} at once.
 */
final class FrontThreads extends ContainerLifeCycle implements ThreadPool, TryExecutor {

    private final CallThreads platform;
    private final VirtualThreadPool overflow;

    /** {@code platform} platform threads at most, then up to {@code virtual} virtual threads at once. */
    FrontThreads(int platform, int virtual) {
        overflow = new VirtualThreadPool(virtual);
        overflow.setName("mcpx-http-v");
        addBean(overflow);
        this.platform = new CallThreads(platform, "mcpx-http", overflow);
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
        return platform.platformThreads() + overflow.getThreads();
    }

    @Override
    public int getIdleThreads() {
        return platform.platformThreads() - platform.busyPlatformThreads();
    }

    /** Never: past the platform threads, every task still gets a virtual one. */
    @Override
    public boolean isLowOnThreads() {
        return false;
    }

    /** Platform threads running a task now (tests). */
    int busyPlatformThreads() {
        return platform.busyPlatformThreads();
    }

    @Override
    protected void doStop() throws Exception {
        platform.shutdown();
        super.doStop();
    }
}

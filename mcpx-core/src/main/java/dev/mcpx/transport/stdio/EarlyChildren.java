package dev.mcpx.transport.stdio;

import dev.mcpx.transport.UpstreamEndpoint;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Upstream children started before the gateway that will talk to them exists, so a child's own
 * start-up overlaps the gateway's: the first transport opened for the same endpoint takes the
 * child over, once. A child nobody takes within {@link #UNCLAIMED}, or still waiting when the JVM
 * exits, is stopped as any child is.
 */
public final class EarlyChildren {

    static final Duration UNCLAIMED = Duration.ofSeconds(10);
    private static final Duration GRACE = Duration.ofSeconds(2);
    /**
     * Keyed by the endpoint's components rather than the endpoint: a record's own {@code hashCode}
     * is bootstrapped through method handles on first use, 5-10 ms before the first child started.
     */
    private static final ConcurrentMap<List<Object>, Process> WAITING = new ConcurrentHashMap<>();
    private static final AtomicBoolean HOOKED = new AtomicBoolean();

    private EarlyChildren() {
    }

    /** Starts {@code endpoint}'s child now, unless one already waits; a child that cannot start is left to the transport to report. */
    public static void start(UpstreamEndpoint.Stdio endpoint) {
        start(endpoint, UNCLAIMED);
    }

    static void start(UpstreamEndpoint.Stdio endpoint, Duration unclaimed) {
        List<Object> key = key(endpoint);
        if (WAITING.containsKey(key)) {
            return;
        }
        if (HOOKED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(EarlyChildren::stopUnclaimed, "mcpx-early-children-shutdown"));
        }
        Process child;
        try {
            child = ChildProcesses.spawn(endpoint);
        } catch (IOException e) {
            return;
        }
        if (WAITING.putIfAbsent(key, child) != null) {
            ChildProcesses.stop(child, GRACE);
            return;
        }
        CompletableFuture.runAsync(() -> {
            if (WAITING.remove(key, child)) {
                ChildProcesses.stop(child, GRACE);
            }
        }, CompletableFuture.delayedExecutor(unclaimed.toMillis(), TimeUnit.MILLISECONDS));
    }

    /** The waiting child for {@code endpoint}, now the caller's, or null when none waits (or it has died). */
    static Process claim(UpstreamEndpoint.Stdio endpoint) {
        Process child = WAITING.remove(key(endpoint));
        if (child != null && !child.isAlive()) {
            // a child that died waiting: a new one gives the transport its own start to report on
            ChildProcesses.stop(child, GRACE);
            return null;
        }
        return child;
    }

    /** Equal for equal endpoints, as the record's own equality is (a null working directory included). */
    private static List<Object> key(UpstreamEndpoint.Stdio endpoint) {
        return Arrays.asList(endpoint.command(), endpoint.args(), endpoint.env(), endpoint.cwd(), endpoint.inheritEnvironment());
    }

    /** Stops every child still waiting. */
    public static void stopUnclaimed() {
        for (List<Object> key : List.copyOf(WAITING.keySet())) {
            Process child = WAITING.remove(key);
            if (child != null) {
                ChildProcesses.stop(child, GRACE);
            }
        }
    }
}

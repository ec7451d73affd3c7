package dev.mcpx.pool;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.catalogue.ListKind;
import dev.mcpx.client.ServerRequestHandler;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.protocol.UpstreamUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One {@link Upstream} per enabled config entry, all started at once so a slow or broken one
 * delays no other. {@link #apply} swaps in a changed config: added entries start, removed ones
 * stop, changed ones restart, untouched ones keep running.
 */
public final class Pool implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Pool.class);

    private final Catalogue catalogue;
    private final ClientFactory clients;
    private final Backoff backoff;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("mcpx-pool-timer").factory());
    private final Map<String, Upstream> upstreams = new LinkedHashMap<>();
    private final List<BiConsumer<String, ObjectNode>> resourceListeners = new CopyOnWriteArrayList<>();
    private final List<BiConsumer<String, ObjectNode>> logListeners = new CopyOnWriteArrayList<>();
    private volatile ServerRequestHandler outsideCalls = ServerRequestHandler.pingOnly();
    private volatile SessionEnded sessionsEnded = SessionEnded.NONE;
    /** Upstreams applied while held: registered, not yet started (null: not held). Guarded by {@code upstreams}. */
    private List<Upstream> held;

    public Pool(Catalogue catalogue, ClientFactory clients, Backoff backoff) {
        this.catalogue = catalogue;
        this.clients = clients;
        this.backoff = backoff;
    }

    /** Starts every upstream of {@code config}, or reconciles the running set with it. */
    public void apply(GatewayConfig config) {
        List<Upstream> stopped = new ArrayList<>();
        List<Upstream> started = new ArrayList<>();
        List<UpstreamConfig> refiltered = new ArrayList<>();
        synchronized (upstreams) {
            Map<String, UpstreamConfig> wanted = new LinkedHashMap<>();
            config.upstreams().forEach(upstream -> wanted.put(upstream.name(), upstream));
            for (Upstream running : List.copyOf(upstreams.values())) {
                UpstreamConfig next = wanted.get(running.name());
                // a filter edit alone keeps the connection: only what hosts see changes
                if (next == null || !next.withFilter(running.config().filter()).equals(running.config())) {
                    upstreams.remove(running.name());
                    stopped.add(running);
                } else {
                    refiltered.add(next);
                }
            }
            Map<String, Upstream> reordered = new LinkedHashMap<>();
            for (UpstreamConfig entry : wanted.values()) {
                Upstream existing = upstreams.get(entry.name());
                if (existing == null) {
                    existing = new Upstream(entry, catalogue, clients, backoff, timer, notices,
                            (method, params) -> outsideCalls.handle(method, params),
                            (upstream, transport, version, nanos) -> sessionsEnded.ended(upstream, transport, version, nanos));
                    for (Upstream changed : stopped) {
                        if (changed.name().equals(entry.name())) {
                            existing.inheritSubscriptions(changed);
                        }
                    }
                    started.add(existing);
                }
                reordered.put(entry.name(), existing);
            }
            upstreams.clear();
            upstreams.putAll(reordered);
        }
        for (Upstream old : stopped) {
            LOG.info("{}: {} by the config", old.name(), started.stream().anyMatch(u -> u.name().equals(old.name()))
                    ? "changed" : "removed");
            old.stop();
            catalogue.remove(old.name());
        }
        for (UpstreamConfig kept : refiltered) {
            catalogue.filter(kept.name(), kept.filter());
        }
        for (Upstream fresh : started) {
            catalogue.register(fresh.name(), fresh.config().prefix(), fresh.config().filter());
        }
        synchronized (upstreams) {
            if (held != null) {
                held.addAll(started);
                return;
            }
        }
        started.forEach(Upstream::start);
    }

    /**
     * Upstreams applied from now on are registered (a host's list or call waits for them as for
     * any upstream starting) but start only at {@link #release}: a front then starts without their
     * start-up competing for the CPU.
     */
    public void hold() {
        synchronized (upstreams) {
            if (held == null) {
                held = new ArrayList<>();
            }
        }
    }

    /** Starts what was applied while held, except what a later apply removed, and holds no more. */
    public void release() {
        List<Upstream> starting = new ArrayList<>();
        synchronized (upstreams) {
            if (held == null) {
                return;
            }
            for (Upstream upstream : held) {
                if (upstreams.get(upstream.name()) == upstream) {
                    starting.add(upstream);
                }
            }
            held = null;
        }
        starting.forEach(Upstream::start);
    }

    /**
     * What answers an upstream's requests that belong to no call ({@code roots/list} when a
     * legacy server asks on its own); until set, only {@code ping}. Applies to running clients too.
     */
    public void answerOutsideCalls(ServerRequestHandler handler) {
        outsideCalls = handler;
    }

    /** Sends {@code method}, a notification without params, to every legacy upstream that is up. */
    public void notifyLegacyUpstreams(String method) {
        for (Upstream upstream : upstreams()) {
            Thread.ofVirtual().name("mcpx-notify-" + upstream.name()).start(() -> upstream.notifyIfLegacy(method));
        }
    }

    /**
     * Receives every {@code notifications/resources/updated} an upstream sends: the upstream's
     * name and the notification's params. Returns the unsubscribe action.
     */
    public Runnable onResourceUpdated(BiConsumer<String, ObjectNode> listener) {
        resourceListeners.add(listener);
        return () -> resourceListeners.remove(listener);
    }

    /** {@code listener} hears of every upstream session that ends from now on (telemetry's session durations). */
    public void onSessionEnded(SessionEnded listener) {
        sessionsEnded = listener;
    }

    /**
     * Receives every {@code notifications/message} an upstream's session sends outside its calls
     * (a line sent during a call goes to that call's host): the upstream's name and the line's
     * params. Returns the unsubscribe action.
     */
    public Runnable onLogged(BiConsumer<String, ObjectNode> listener) {
        logListeners.add(listener);
        return () -> logListeners.remove(listener);
    }

    private final SessionNotices notices = new SessionNotices() {
        @Override
        public void resourceUpdated(String upstream, ObjectNode params) {
            tell(resourceListeners, upstream, params, "a resource update");
        }

        @Override
        public void logged(String upstream, ObjectNode params) {
            tell(logListeners, upstream, params, "a log line");
        }
    };

    private static void tell(List<BiConsumer<String, ObjectNode>> listeners, String upstream, ObjectNode params,
                             String what) {
        for (BiConsumer<String, ObjectNode> listener : listeners) {
            try {
                listener.accept(upstream, params);
            } catch (RuntimeException e) {
                LOG.warn("{}: passing on {} failed", upstream, what, e);
            }
        }
    }

    public Optional<Upstream> upstream(String name) {
        synchronized (upstreams) {
            return Optional.ofNullable(upstreams.get(name));
        }
    }

    /** The upstream {@code name}, or an error a host can read when there is none. */
    public Upstream require(String name) {
        return upstream(name).orElseThrow(() -> new UpstreamUnavailableException(
                "upstream \"" + name + "\" is not configured (any more)"));
    }

    public List<Upstream> upstreams() {
        synchronized (upstreams) {
            return List.copyOf(upstreams.values());
        }
    }

    public List<UpstreamStatus> status() {
        return upstreams().stream().map(Upstream::status).toList();
    }

    /** Waits, at most {@code max}, until every upstream's first start attempt has ended. */
    public void awaitFirstAttempts(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        for (Upstream upstream : upstreams()) {
            long left = deadline - System.nanoTime();
            try {
                if (left <= 0 || !upstream.awaitFirstAttempt(Duration.ofNanos(left))) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Waits for the first start attempt of the upstream whose prefix {@code exposedName} carries,
     * at most that upstream's request timeout: a call to a tool of an upstream still on its first
     * start (a slow {@code npx} download, a loaded machine) waits for it as a call during a restart
     * does. False when no such upstream is still starting, or it did not finish in time.
     */
    public boolean awaitFirstAttemptOf(String exposedName) {
        for (Upstream upstream : upstreams()) {
            String prefix = upstream.config().prefix();
            if (!prefix.isEmpty() && exposedName.startsWith(prefix + "__") && upstream.state() == UpstreamState.STARTING) {
                try {
                    return upstream.awaitFirstAttempt(upstream.config().requestTimeout());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return false;
    }

    /**
     * Re-reads, in parallel, every upstream's {@code kind} list whose {@code ttlMs} ran out, waiting
     * at most {@code within}: a host asking for the list then gets it fresh, or as it was when an
     * upstream is slow (its refresh goes on, and list_changed follows when it changes the list).
     */
    public void refreshExpired(ListKind kind, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        List<Thread> refreshing = upstreams().stream()
                .map(u -> Thread.ofVirtual().start(() -> u.refreshExpired(kind, deadline))).toList();
        for (Thread thread : refreshing) {
            try {
                thread.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops every upstream and reaps their processes. */
    @Override
    public void close() {
        List<Upstream> all;
        synchronized (upstreams) {
            all = List.copyOf(upstreams.values());
            upstreams.clear();
        }
        List<Thread> stopping = all.stream().map(u -> Thread.ofVirtual().start(u::stop)).toList();
        for (Thread thread : stopping) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        timer.shutdownNow();
    }
}

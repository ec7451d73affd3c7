package dev.mcpx.pool;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.catalogue.ListKind;
import dev.mcpx.client.CatalogueKind;
import dev.mcpx.client.ClientCounters;
import dev.mcpx.client.ClientEvent;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.client.ServerDescription;
import dev.mcpx.client.ServerRequestHandler;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.NeedsLoginException;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.ToolDescriptor;
import dev.mcpx.protocol.UpstreamUnavailableException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One configured upstream and its life: its client, start with backoff retries, restart after
 * its connection dies, its counters, and its part of the catalogue. A call that arrives while
 * it starts or restarts waits for it within the call's timeout instead of failing.
 */
public final class Upstream {

    private static final Logger LOG = LoggerFactory.getLogger(Upstream.class);
    private static final Duration CANCEL_POLL = Duration.ofMillis(100);
    /** A list whose ttlMs ran out is read again at most this often, however many hosts ask for it. */
    private static final Duration MIN_EXPIRED_REFRESH_GAP = Duration.ofSeconds(1);

    private final UpstreamConfig config;
    private final Catalogue catalogue;
    private final ClientFactory clients;
    private final Backoff backoff;
    private final ScheduledExecutorService timer;
    private final SessionNotices notices;
    private final ServerRequestHandler outsideCalls;
    /** The resources hosts subscribed to here: a new client (after a restart) subscribes them again. */
    private final Set<String> subscribed = ConcurrentHashMap.newKeySet();

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ReentrantLock refreshing = new ReentrantLock();
    private final CountDownLatch firstAttempt = new CountDownLatch(1);
    private final AtomicLong restarts = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    /** Tool list refreshes finished: a call told "unknown tool" refreshes only if none finished since it was sent. */
    private final AtomicLong toolRefreshes = new AtomicLong();
    private final AtomicLong lastExpiredRefreshNanos = new AtomicLong(System.nanoTime() - MIN_EXPIRED_REFRESH_GAP.toNanos());

    private McpClient client;
    private UpstreamState state;
    private String reason;
    private long attempt;
    /** The attempt whose client's lists were read into the catalogue when it came up. */
    private long listedAttempt;
    private int failures;
    private long upSinceNanos;
    private long lostAtNanos;
    private ScheduledFuture<?> nextAttempt;
    private ClientCounters.Snapshot retired = new ClientCounters.Snapshot(0, 0, 0, 0, 0);
    private String era;
    private String protocolVersion;
    private Long lastPid;

    private final SessionEnded sessionsEnded;
    /** When the current upstream session began: the client's connect, or its last re-initialize. */
    private volatile long sessionSinceNanos;

    Upstream(UpstreamConfig config, Catalogue catalogue, ClientFactory clients, Backoff backoff,
             ScheduledExecutorService timer, SessionNotices notices,
             ServerRequestHandler outsideCalls, SessionEnded sessionsEnded) {
        this.sessionsEnded = sessionsEnded;
        this.config = config;
        this.catalogue = catalogue;
        this.clients = clients;
        this.backoff = backoff;
        this.timer = timer;
        this.notices = notices;
        this.outsideCalls = outsideCalls;
        this.state = config.enabled() ? UpstreamState.STARTING : UpstreamState.DISABLED;
    }

    public String name() {
        return config.name();
    }

    public UpstreamConfig config() {
        return config;
    }

    void start() {
        if (!config.enabled()) {
            firstAttempt.countDown();
            return;
        }
        long id;
        lock.lock();
        try {
            id = ++attempt;
        } finally {
            lock.unlock();
        }
        Thread.ofVirtual().name("mcpx-start-" + name()).start(() -> connect(id));
    }

    /**
     * A login just stored this upstream's tokens: one waiting for a login, or failed, connects now
     * instead of at its backoff's next attempt. Returns once that attempt ended (its lists read when
     * it came up) with the state it left; any other state is left alone and returned.
     */
    public UpstreamState connectNow() {
        long id = 0;
        lock.lock();
        try {
            if (state == UpstreamState.NEEDS_LOGIN || state == UpstreamState.FAILED) {
                if (nextAttempt != null) {
                    nextAttempt.cancel(false);
                }
                id = ++attempt;
                state = UpstreamState.STARTING;
                reason = "logged in; connecting";
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        if (id != 0) {
            connect(id);
        }
        return awaitSettled(config.startTimeout().plus(config.requestTimeout()));
    }

    /**
     * Waits, at most {@code max}, while an attempt is under way, or the client is up but its lists
     * are not read yet (a backoff attempt may have come up with the new tokens just before).
     */
    private UpstreamState awaitSettled(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        lock.lock();
        try {
            while (state == UpstreamState.STARTING || state == UpstreamState.RESTARTING
                    || state == UpstreamState.UP && listedAttempt != attempt) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                changed.awaitNanos(left);
            }
            return state;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return state;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the first start attempt has ended either way (for the first host list). */
    boolean awaitFirstAttempt(Duration max) throws InterruptedException {
        return firstAttempt.await(max.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void connect(long id) {
        McpClient candidate = clients.create(config, event -> onEvent(id, event), outsideCalls);
        try {
            connectWithin(candidate, config.startTimeout());
        } catch (RuntimeException e) {
            ChildProcesses.close(candidate);
            failed(id, e);
            return;
        }
        lock.lock();
        try {
            if (id != attempt || state == UpstreamState.STOPPED) {
                ChildProcesses.close(candidate);
                return;
            }
            client = candidate;
            state = UpstreamState.UP;
            reason = null;
            upSinceNanos = System.nanoTime();
            sessionSinceNanos = upSinceNanos;
            era = candidate.server().era().name().toLowerCase(java.util.Locale.ROOT);
            protocolVersion = candidate.server().protocolVersion().wire();
            lastPid = candidate.pid().orElse(null);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        LOG.info("{}: up ({} {}, {})", name(), era, protocolVersion, candidate.server().name());
        refresh(candidate, EnumSet.allOf(ListKind.class));
        lock.lock();
        try {
            listedAttempt = id;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        firstAttempt.countDown();
        subscribeAgain(candidate);
    }

    /** A new client knows nothing of the old one's subscriptions: the hosts' ones are made again. */
    private void subscribeAgain(McpClient fresh) {
        for (String uri : List.copyOf(subscribed)) {
            try {
                fresh.subscribeResource(uri);
            } catch (McpException e) {
                LOG.warn("{}: could not subscribe to {} again after the restart: {}", name(), uri, e.getMessage());
            }
        }
    }

    private static void connectWithin(McpClient candidate, Duration limit) {
        var connecting = new java.util.concurrent.CompletableFuture<Void>();
        Thread.ofVirtual().start(() -> {
            try {
                candidate.connect();
                connecting.complete(null);
            } catch (Throwable e) {
                connecting.completeExceptionally(e);
            }
        });
        try {
            connecting.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new UpstreamUnavailableException("did not finish connecting within " + limit.toMillis() + " ms");
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime
                    : new UpstreamUnavailableException(String.valueOf(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpstreamUnavailableException("interrupted while connecting");
        }
    }

    /**
     * A start attempt failed. One that follows a lost connection keeps the upstream restarting (its
     * tools listed, calls waiting for it) for as long as a call may wait: an HTTP server that is
     * redeployed refuses connections for a while, as a stdio child takes a while to start. After
     * that, or when it never was up, it is failed: calls are refused at once until it is back.
     */
    private void failed(long id, RuntimeException cause) {
        Duration delay;
        boolean reconnecting;
        lock.lock();
        try {
            if (id != attempt || state == UpstreamState.STOPPED) {
                return;
            }
            failures++;
            delay = backoff.delay(failures);
            reconnecting = state == UpstreamState.RESTARTING
                    && System.nanoTime() - lostAtNanos < config.requestTimeout().toNanos();
            if (cause instanceof NeedsLoginException) {
                reconnecting = false;
                state = UpstreamState.NEEDS_LOGIN;
                reason = describe(cause);
            } else if (reconnecting) {
                reason = "reconnect failed (" + describe(cause) + "); next attempt in " + delay.toMillis() + " ms";
            } else {
                state = UpstreamState.FAILED;
                reason = describe(cause);
            }
            scheduleAttempt(delay);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (reconnecting) {
            LOG.warn("{}: {}", name(), reason);
        } else {
            LOG.warn("{}: failed to start ({}); retrying in {} ms", name(), reason, delay.toMillis());
            if (cause instanceof NeedsLoginException && LoginTool.offeredFor(config)) {
                catalogue.clear(name(), ListKind.TOOLS, List.of(LoginTool.descriptor(name())));
            } else {
                catalogue.clear(name());
            }
        }
        firstAttempt.countDown();
    }

    private void onEvent(long id, ClientEvent event) {
        switch (event) {
            case ClientEvent.ListChanged listChanged -> refreshLater(id, switch (listChanged.kind()) {
                case TOOLS -> EnumSet.of(ListKind.TOOLS);
                case PROMPTS -> EnumSet.of(ListKind.PROMPTS);
                case RESOURCES -> EnumSet.of(ListKind.RESOURCES, ListKind.RESOURCE_TEMPLATES);
            });
            case ClientEvent.Reinitialized reinitialized -> {
                if (currentClient(id) != null) {
                    long now = System.nanoTime();
                    sessionsEnded.ended(name(), config.transport(), protocolVersion, now - sessionSinceNanos);
                    sessionSinceNanos = now;
                }
                refreshLater(id, EnumSet.allOf(ListKind.class));
            }
            case ClientEvent.EraChanged changed -> eraChanged(id, changed);
            case ClientEvent.Closed closed -> connectionDied(id, closed.cause());
            case ClientEvent.Log log -> {
                LOG.debug("{}: {}", name(), log.params());
                if (currentClient(id) != null) {
                    notices.logged(name(), log.params());
                }
            }
            case ClientEvent.ResourceUpdated updated -> {
                if (currentClient(id) != null) {
                    notices.resourceUpdated(name(), updated.params());
                }
            }
        }
    }

    /** The client moved to the other era under way: /status shows what it speaks now. */
    private void eraChanged(long id, ClientEvent.EraChanged changed) {
        lock.lock();
        try {
            if (id != attempt) {
                return;
            }
            era = changed.to().name().toLowerCase(java.util.Locale.ROOT);
            protocolVersion = changed.version().wire();
        } finally {
            lock.unlock();
        }
    }

    private void refreshLater(long id, Set<ListKind> kinds) {
        Thread.ofVirtual().name("mcpx-refresh-" + name()).start(() -> {
            McpClient current = currentClient(id);
            if (current != null) {
                refresh(current, kinds);
            }
        });
    }

    private McpClient currentClient(long id) {
        lock.lock();
        try {
            return id == attempt && state == UpstreamState.UP ? client : null;
        } finally {
            lock.unlock();
        }
    }

    /** Re-reads some lists into the catalogue; one refresh at a time so an old list never wins. */
    private void refresh(McpClient source, Set<ListKind> kinds) {
        refreshing.lock();
        try {
            ObjectNode capabilities = source.server().capabilities();
            for (ListKind kind : kinds) {
                if (capabilities == null || !capabilities.has(kind.capability())) {
                    catalogue.replace(name(), kind, List.of());
                    continue;
                }
                try {
                    catalogue.replace(name(), kind, switch (kind) {
                        case TOOLS -> ServedTools.of(name(), source.listTools().stream().map(ToolDescriptor::raw).toList());
                        case PROMPTS -> source.listPrompts();
                        case RESOURCES -> source.listResources();
                        case RESOURCE_TEMPLATES -> source.listResourceTemplates();
                    });
                } catch (McpException e) {
                    LOG.warn("{}: {} failed: {}", name(), kind.method(), e.getMessage());
                }
            }
            if (kinds.contains(ListKind.TOOLS)) {
                toolRefreshes.incrementAndGet();
            }
        } finally {
            refreshing.unlock();
        }
    }

    /** Runs {@code refresh} on its own thread and waits for it until {@code deadlineNanos} at most. */
    private static void within(long deadlineNanos, Runnable refresh) {
        Thread running = Thread.ofVirtual().name("mcpx-refresh").start(refresh);
        try {
            running.join(Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** See {@link Pool#refreshExpired}; at most one such refresh per {@link #MIN_EXPIRED_REFRESH_GAP}. */
    void refreshExpired(ListKind kind, long deadlineNanos) {
        McpClient live = currentClient();
        if (live == null || !live.listExpired(clientKind(kind))) {
            return;
        }
        long now = System.nanoTime();
        long last = lastExpiredRefreshNanos.get();
        // of hosts listing at once, one refreshes; the others are answered from the list as it is
        if (now - last < MIN_EXPIRED_REFRESH_GAP.toNanos() || !lastExpiredRefreshNanos.compareAndSet(last, now)) {
            return;
        }
        within(deadlineNanos, () -> refresh(live, clientKind(kind) == CatalogueKind.RESOURCES
                ? EnumSet.of(ListKind.RESOURCES, ListKind.RESOURCE_TEMPLATES) : EnumSet.of(kind)));
    }

    private static CatalogueKind clientKind(ListKind kind) {
        return switch (kind) {
            case TOOLS -> CatalogueKind.TOOLS;
            case PROMPTS -> CatalogueKind.PROMPTS;
            case RESOURCES, RESOURCE_TEMPLATES -> CatalogueKind.RESOURCES;
        };
    }

    /**
     * A tool call was answered "unknown tool" for a tool the catalogue lists: the list is out of
     * date (a server swapped on the same URL keeps the session). One refresh for all the calls
     * that saw it, unless one finished since this call was sent; the caller then gets its answer.
     */
    private void toolsOutOfDate(McpClient seen, long refreshesBefore, long deadlineNanos) {
        LOG.info("{}: an upstream answer says a listed tool is unknown; reading its tools again", name());
        within(deadlineNanos, () -> {
            refreshing.lock();
            try {
                if (toolRefreshes.get() != refreshesBefore || currentClient() != seen) {
                    return;
                }
                seen.forgetList(CatalogueKind.TOOLS);
                refresh(seen, EnumSet.of(ListKind.TOOLS));
            } finally {
                refreshing.unlock();
            }
        });
    }

    private McpClient currentClient() {
        lock.lock();
        try {
            return state == UpstreamState.UP ? client : null;
        } finally {
            lock.unlock();
        }
    }

    /** The connection died (a stdio child exited, an HTTP+SSE stream ended): calls in flight already failed; restart. */
    private void connectionDied(long id, McpException cause) {
        restart(() -> id == attempt, cause);
    }

    /**
     * An HTTP upstream refused {@code seen}'s connection: the server went away, and no event says
     * so (a stream-less transport never dies by itself). Restarted like a dead child, once for
     * every call that saw it.
     */
    private void unreachable(McpClient seen, McpException cause) {
        restart(() -> client == seen, cause);
    }

    /** Retires the live client, if it is still the one {@code current} (read under the lock) means, and schedules its replacement. */
    private void restart(java.util.function.BooleanSupplier current, McpException cause) {
        McpClient dead;
        Duration delay;
        lock.lock();
        try {
            if (state != UpstreamState.UP || !current.getAsBoolean()) {
                return;
            }
            dead = client;
            retire(dead);
            lostAtNanos = System.nanoTime();
            client = null;
            boolean stableRun = System.nanoTime() - upSinceNanos >= backoff.stableAfter().toNanos();
            failures = stableRun ? 1 : failures + 1;
            delay = backoff.delay(failures);
            state = UpstreamState.RESTARTING;
            reason = describe(cause);
            restarts.incrementAndGet();
            scheduleAttempt(delay);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        LOG.warn("{}: connection lost ({}); restarting in {} ms", name(), reason, delay.toMillis());
        if (dead != null) {
            Thread.ofVirtual().start(() -> ChildProcesses.close(dead));
        }
    }

    private void scheduleAttempt(Duration delay) {
        long id = ++attempt;
        nextAttempt = timer.schedule(() -> {
            Thread.ofVirtual().name("mcpx-start-" + name()).start(() -> connect(id));
        }, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void retire(McpClient old) {
        if (old != null) {
            sessionsEnded.ended(name(), config.transport(), protocolVersion, System.nanoTime() - sessionSinceNanos);
            ClientCounters.Snapshot s = old.counters().snapshot();
            retired = new ClientCounters.Snapshot(retired.requests() + s.requests(),
                    retired.reinitializations() + s.reinitializations(), retired.reissues() + s.reissues(),
                    retired.errors() + s.errors(), retired.eraChanges() + s.eraChanges());
        }
    }

    /**
     * Sends a request through this upstream's client, waiting (within the request's timeout)
     * while it starts or restarts.
     *
     * @throws McpException the client's typed failure, or {@link UpstreamUnavailableException}
     *                      naming this upstream when it is down
     */
    public JsonNode request(String method, ObjectNode params, RequestOptions options) {
        Duration timeout = options.timeout() != null ? options.timeout() : config.requestTimeout();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            McpClient ready = awaitUp(deadline, options);
            long refreshesBefore = toolRefreshes.get();
            try {
                // the wait for a restart spent part of the request's one timeout: the client gets the rest, not a new one
                JsonNode result = ready.request(method, params, options.withTimeout(left(deadline)));
                if (UnknownTool.in(method, result)) {
                    toolsOutOfDate(ready, refreshesBefore, deadline);
                }
                return result;
            } catch (McpErrorException e) {
                if (UnknownTool.in(method, e)) {
                    toolsOutOfDate(ready, refreshesBefore, deadline);
                }
                throw e;
            } catch (UpstreamUnavailableException e) {
                if (!e.unreachable()) {
                    throw e;
                }
                // it never left: it waits for the reconnect, paced by the backoff, and goes again
                unreachable(ready, e);
            }
        }
    }

    /**
     * Whether {@code method} may run once more here when its first answer was lost with the
     * replica that waited for it: the client's rule for a lost stream ({@link McpClient#harmlessToRepeat}).
     *
     * @throws McpException the upstream is down past its request timeout
     */
    public boolean harmlessToRepeat(String method, ObjectNode params) {
        RequestOptions options = RequestOptions.defaults();
        return awaitUp(System.nanoTime() + config.requestTimeout().toNanos(), options).harmlessToRepeat(method, params);
    }

    private static Duration left(long deadlineNanos) {
        return Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime()));
    }

    /**
     * Subscribes the gateway to {@code uri} here (once; the router counts the hosts), kept across
     * restarts until {@link #unsubscribeResource}.
     *
     * @throws McpException the upstream has no resource subscriptions, is down, or refused
     */
    public void subscribeResource(String uri, RequestOptions options) {
        Duration timeout = options.timeout() != null ? options.timeout() : config.requestTimeout();
        McpClient ready = awaitUp(System.nanoTime() + timeout.toNanos(), options);
        if (!offersSubscriptions(ready)) {
            throw new McpErrorException(new JsonRpcError(ErrorCodes.INVALID_PARAMS, "upstream \"" + name()
                    + "\" does not offer resource subscriptions, so " + uri + " cannot be subscribed to",
                    dev.mcpx.protocol.Json.object().put("uri", uri)));
        }
        // recorded first: a restart right now must subscribe it on the new client too
        boolean added = subscribed.add(uri);
        try {
            ready.subscribeResource(uri);
        } catch (RuntimeException e) {
            if (added) {
                subscribed.remove(uri);
            }
            throw e;
        }
    }

    /** A changed config replaced {@code previous}: its hosts' subscriptions carry over to this one. */
    void inheritSubscriptions(Upstream previous) {
        subscribed.addAll(previous.subscribed);
    }

    /** Ends the subscription to {@code uri} (no host needs it any more). */
    public void unsubscribeResource(String uri) {
        subscribed.remove(uri);
        McpClient live;
        lock.lock();
        try {
            live = state == UpstreamState.UP ? client : null;
        } finally {
            lock.unlock();
        }
        if (live != null) {
            live.unsubscribeResource(uri);
        }
    }

    /** Whether the live client's upstream declared {@code resources.subscribe}. */
    public boolean offersSubscriptions() {
        lock.lock();
        try {
            return state == UpstreamState.UP && offersSubscriptions(client);
        } finally {
            lock.unlock();
        }
    }

    private static boolean offersSubscriptions(McpClient client) {
        ObjectNode capabilities = client == null || client.server() == null ? null : client.server().capabilities();
        return capabilities != null && capabilities.path("resources").path("subscribe").asBoolean(false);
    }

    private McpClient awaitUp(long deadlineNanos, RequestOptions options) {
        lock.lock();
        try {
            while (true) {
                // a child that just died still reads as up until its Closed event restarts it: wait for that
                UpstreamState seen = state == UpstreamState.UP && !client.isOpen() ? UpstreamState.RESTARTING : state;
                switch (seen) {
                    case UP -> {
                        return client;
                    }
                    case STARTING, RESTARTING -> {
                        if (options.cancellation() != null && options.cancellation().isCancelled()) {
                            throw new RequestCancelledException(options.cancellation().reason());
                        }
                        long left = deadlineNanos - System.nanoTime();
                        if (left <= 0) {
                            throw unavailable("is still " + seen.label()
                                    + (reason == null ? "" : " (" + reason + ")"));
                        }
                        try {
                            changed.awaitNanos(Math.min(left, CANCEL_POLL.toNanos()));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new RequestCancelledException("interrupted");
                        }
                    }
                    case FAILED -> throw unavailable("failed to start: " + reason);
                    case NEEDS_LOGIN -> {
                        rejected.incrementAndGet();
                        throw new NeedsLoginException(reason, null);
                    }
                    case DISABLED -> throw unavailable("is disabled in the config");
                    case STOPPED -> throw unavailable("is stopped");
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private UpstreamUnavailableException unavailable(String why) {
        rejected.incrementAndGet();
        return new UpstreamUnavailableException("upstream \"" + name() + "\" " + why);
    }

    /** Stops the client and reaps its process tree; the upstream answers "stopped" from now on. */
    void stop() {
        McpClient last;
        lock.lock();
        try {
            state = UpstreamState.STOPPED;
            attempt++;
            if (nextAttempt != null) {
                nextAttempt.cancel(false);
            }
            last = client;
            retire(last);
            client = null;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        firstAttempt.countDown();
        if (last != null) {
            ChildProcesses.close(last);
        }
    }

    /** Sends {@code method} (a notification without params) when the upstream is up and legacy. */
    void notifyIfLegacy(String method) {
        McpClient current;
        lock.lock();
        try {
            current = state == UpstreamState.UP && client != null && client.server().era() == Era.LEGACY ? client : null;
        } finally {
            lock.unlock();
        }
        if (current != null) {
            try {
                current.notify(method, null);
            } catch (McpException e) {
                LOG.debug("{}: {} not delivered: {}", name(), method, e.getMessage());
            }
        }
    }

    public UpstreamStatus status() {
        lock.lock();
        try {
            ClientCounters.Snapshot live = client == null ? new ClientCounters.Snapshot(0, 0, 0, 0, 0)
                    : client.counters().snapshot();
            Long pid = client != null ? client.pid().orElse(null) : null;
            String degraded = state == UpstreamState.UP && client != null ? client.degradedReason().orElse(null) : null;
            return new UpstreamStatus(name(), config.transport(), era, protocolVersion,
                    degraded != null ? UpstreamState.DEGRADED.label() : state.label(),
                    pid, retired.requests() + live.requests(),
                    retired.reinitializations() + live.reinitializations(), retired.reissues() + live.reissues(),
                    restarts.get(), retired.errors() + live.errors() + rejected.get(), degraded != null ? degraded : reason,
                    retired.eraChanges() + live.eraChanges());
        } finally {
            lock.unlock();
        }
    }

    public UpstreamState state() {
        lock.lock();
        try {
            return state;
        } finally {
            lock.unlock();
        }
    }

    /** Whether this upstream is up and offers the 2026-07-28 extension {@code id} in its capabilities. */
    public boolean offersExtension(String id) {
        lock.lock();
        try {
            ServerDescription server = state == UpstreamState.UP && client != null ? client.server() : null;
            return server != null && server.era() == Era.MODERN && server.capabilities() != null
                    && server.capabilities().path("extensions").get(id) instanceof ObjectNode;
        } finally {
            lock.unlock();
        }
    }

    /** Requests in the live client's pending table (0 without a client): leak checks read it. */
    public int pendingRequests() {
        lock.lock();
        try {
            return client == null ? 0 : client.pendingCount();
        } finally {
            lock.unlock();
        }
    }

    /** The OS process id of the stdio child last started, for tests and {@code /status}. */
    public Long lastPid() {
        lock.lock();
        try {
            return lastPid;
        } finally {
            lock.unlock();
        }
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}

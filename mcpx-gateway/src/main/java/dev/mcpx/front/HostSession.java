package dev.mcpx.front;

import dev.mcpx.client.Cancellation;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.router.LogLevel;
import dev.mcpx.router.ResourceSubscriptions;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One host as MCP sees it, whatever carries its messages (stdin/stdout, a legacy HTTP session):
 * its requests in flight and their cancellation, its limit on them, what it declared at
 * initialize (for the upstreams' asks), the level it set with {@code logging/setLevel}, its roots,
 * its resource subscriptions, its {@code subscriptions/listen} streams and the list changes it
 * hears. The fronts carry the messages; what they mean is decided here, once for both.
 */
public final class HostSession {

    private static final Logger LOG = LoggerFactory.getLogger(HostSession.class);
    /** How long an upstream's sampling/elicitation/roots request waits for the host's answer. */
    static final Duration HOST_ANSWER_TIMEOUT = Duration.ofMinutes(5);

    /** What other processes serving the same host keep of its session (a cluster's replicas), told before it changes here. */
    public interface Replicas {

        Replicas NONE = new Replicas() {
        };

        default void initialized() {
        }

        default void logLevel(LogLevel level) {
        }
    }

    private final HostRequests requests;
    private final String name;
    private final CallLimit calls;
    private final HostChannel outside;
    private final Replicas replicas;
    private final Map<RequestId, Cancellation> inFlight = new ConcurrentHashMap<>();
    private final Map<RequestId, Listen> listens = new ConcurrentHashMap<>();
    /** A legacy host's resource updates reach it outside its calls, once it is initialized. */
    private final ResourceSubscriptions.Subscriber updates = this::resourceUpdated;
    private final AtomicBoolean ended = new AtomicBoolean();
    /** What upstreams' readers hand this host outside its calls: resource updates, and log lines once initialized. */
    private final OutsideLines fromUpstreams;
    /** Stops those lines: null until it hears them, {@link #NOT_HEARING} once ended. */
    private final AtomicReference<Runnable> stopLogs = new AtomicReference<>();
    private static final Runnable NOT_HEARING = () -> { };
    /** Why the host can send nothing more (null while it can): see {@link #inputEnded}. */
    private volatile String inputEnded;
    private volatile HostAsks asks = new HostAsks(null, HOST_ANSWER_TIMEOUT, null, () -> inputEnded);
    private volatile LogLevel logLevel;
    private volatile boolean initialized;
    /** Its roots are to be asked for once it can hear a request outside a call (HTTP: once it listens). */
    private volatile boolean rootsWanted;
    /** The version it speaks (a metric label: mcpx's, never the host's own string); null until its first request. */
    private volatile String version;
    private volatile long sinceNanos;

    /**
     * {@code requests}: the gateway as the host's profile shows it; {@code name}: the session as
     * the audit log names it (never a secret); {@code outside}: how it hears mcpx outside its
     * calls; {@code version}: the version agreed already (null: its first request tells).
     */
    public HostSession(HostRequests requests, String name, CallLimit calls, HostChannel outside, Replicas replicas,
                       String version) {
        this.requests = requests;
        this.name = name;
        this.calls = calls;
        this.outside = outside;
        this.fromUpstreams = new OutsideLines(outside);
        this.replicas = replicas;
        if (version != null) {
            this.version = version;
            this.sinceNanos = System.nanoTime();
        }
    }

    /** A host with no session at all (a 2026-07-28 HTTP request): each request is alone, nothing outlives it. */
    public static HostSession stateless(HostRequests requests) {
        return new HostSession(requests, null, CallLimit.unlimited(), HostChannel.NONE, Replicas.NONE, null);
    }

    /** As initialize declared them: {@code capabilities} (null: none) are what the upstreams' asks may use. */
    public void declared(ObjectNode capabilities) {
        asks = new HostAsks(capabilities, HOST_ANSWER_TIMEOUT, notice -> outside.send(notice), () -> inputEnded);
    }

    /** What the session's store says now (another replica may have changed it): the level, and whether it initialized. */
    public void stored(LogLevel level, boolean initialized) {
        this.logLevel = level;
        this.initialized |= initialized;
        if (initialized) {
            hearLogs();
        }
    }

    /** The session came from another replica, where its roots were asked for: they are asked here once it listens. */
    public void takenUp() {
        rootsWanted = initialized;
    }

    /** No request of the host runs here and no listen is open. */
    public boolean idle() {
        return inFlight.isEmpty() && listens.isEmpty();
    }

    /**
     * Takes a request in now, on the thread that read it: its slot under the host's limit and its
     * id (so a {@code notifications/cancelled} read next finds it). Its answer comes from
     * {@link Call#answer}, which may run elsewhere.
     */
    public Call take(Request hostRequest, Era era, Cancellation cancellation) {
        if (!calls.tryAcquire()) {
            requests.refused("maxCallsPerHost");
            return new Call(hostRequest, era, cancellation, new ErrorResponse(hostRequest.id(), calls.refusal()));
        }
        if (inFlight.putIfAbsent(hostRequest.id(), cancellation) != null) {
            calls.release();
            return new Call(hostRequest, era, cancellation, new ErrorResponse(hostRequest.id(), JsonRpcError.of(
                    ErrorCodes.INVALID_REQUEST, "request id " + hostRequest.id() + " is already in use")));
        }
        if (version == null) {
            sinceNanos = System.nanoTime();
            version = era == Era.MODERN ? ProtocolVersion.LATEST_MODERN.wire() : "";
        }
        if (era == Era.LEGACY && Methods.INITIALIZE.equals(hostRequest.method())) {
            declared(Json.objectAt(hostRequest.params(), "capabilities"));
        }
        return new Call(hostRequest, era, cancellation, null);
    }

    /** One request taken in, to be answered once. */
    public final class Call {

        private final Request hostRequest;
        private final Era era;
        private final Cancellation cancellation;
        /** Set when the request was turned away at {@link #take}: it holds nothing to give back. */
        private final ErrorResponse refusal;
        /** Asks made while the host answers go to the host whose call it is, with the capabilities it had then. */
        private final HostAsks callAsks;

        private Call(Request hostRequest, Era era, Cancellation cancellation, ErrorResponse refusal) {
            this.hostRequest = hostRequest;
            this.era = era;
            this.cancellation = cancellation;
            this.refusal = refusal;
            this.callAsks = era == Era.LEGACY ? asks : null;
        }

        /**
         * The answer, its progress, log lines and requests to the host going to {@code call}
         * first; null when the host cancelled it (MCP: a cancelled request gets no response).
         */
        public JsonRpcMessage answer(HostChannel call) {
            if (refusal != null) {
                return refusal;
            }
            try {
                JsonRpcMessage answer = answered(call);
                return cancellation.isCancelled() ? null : answer;
            } finally {
                inFlight.remove(hostRequest.id(), cancellation);
                calls.release();
            }
        }

        private JsonRpcMessage answered(HostChannel call) {
            String method = hostRequest.method();
            if (era == Era.LEGACY && HostRequests.SUBSCRIPTION_METHODS.contains(method)) {
                return requests.subscription(hostRequest, updates);
            }
            JsonRpcMessage answer = requests.answer(hostRequest, era,
                    progress -> call.send(new Notification(Methods.PROGRESS, progress)), cancellation,
                    callAsks == null ? null : callAsks.capabilities(),
                    callAsks == null ? null : callAsks.forCall(call::send, cancellation),
                    log -> call.send(new Notification(Methods.MESSAGE, log)), logLevel, name);
            if (answer instanceof Result result && Methods.INITIALIZE.equals(method)) {
                version = Objects.requireNonNullElse(Json.text(result.result(), "protocolVersion"), "");
            }
            if (answer instanceof Result && Methods.LOGGING_SET_LEVEL.equals(method)) {
                LogLevel level = LogLevel.parse(Json.text(hostRequest.params(), "level"));
                // kept first: a request on another replica cannot then put the old level back
                replicas.logLevel(level);
                logLevel = level;
            }
            return answer;
        }
    }

    /** From now until the session ends, the upstreams' own log lines at or above the host's level reach it. */
    private void hearLogs() {
        if (stopLogs.get() != null) {
            return;
        }
        Runnable stop = requests.onUpstreamLog(params -> {
            if (LogLevel.heard(logLevel, params)) {
                fromUpstreams.offer(new Notification(Methods.MESSAGE, params));
            }
        });
        if (!stopLogs.compareAndSet(null, stop)) {
            // heard already, or ended meanwhile
            stop.run();
        }
    }

    private void resourceUpdated(ObjectNode params) {
        if (initialized) {
            fromUpstreams.offer(new Notification(Methods.RESOURCES_UPDATED, params));
        }
    }

    /**
     * A notification from the host: {@code initialized}, {@code roots/list_changed} or
     * {@code cancelled}. False when it cancels a request that does not run here (on a cluster it
     * may run on another replica).
     */
    public boolean notified(Notification notification) {
        switch (notification.method()) {
            case Methods.INITIALIZED -> {
                replicas.initialized();
                initialized = true;
                hearLogs();
                fetchRoots();
            }
            case Methods.ROOTS_LIST_CHANGED -> fetchRoots();
            case Methods.CANCELLED -> {
                return cancel(notification.params());
            }
            default -> LOG.debug("ignored host notification {}", notification.method());
        }
        return true;
    }

    private boolean cancel(ObjectNode params) {
        RequestId id = RequestId.fromJson(params == null ? null : params.get("requestId"));
        if (id == null) {
            return true;
        }
        Cancellation cancellation = inFlight.get(id);
        if (cancellation != null) {
            cancellation.cancel(Json.text(params, "reason"));
        }
        Listen listen = listens.remove(id);
        if (listen != null) {
            listen.close();
        }
        return cancellation != null || listen != null;
    }

    /** The host's response to a request mcpx passed to it; false when none waits for it here. */
    public boolean answered(JsonRpcMessage response) {
        return asks.complete(response);
    }

    /**
     * A modern host's {@code subscriptions/listen} on the host's own channel: acknowledged once
     * its resources are subscribed (on a thread of its own: that may wait for upstreams), answered
     * never; it ends with the host's {@code notifications/cancelled} or the session.
     */
    public void listen(Request hostRequest) {
        Listen listen = new Listen(requests, hostRequest, outside);
        listens.put(listen.id(), listen);
        Thread.ofVirtual().name("mcpx-host-listen").start(() -> {
            listen.open();
            if (listens.get(listen.id()) != listen) {
                listen.close();
            }
        });
    }

    /** Tells the host of the lists that changed for its profile: plainly once initialized (legacy), and on each listen. */
    public void listsChanged(ListChanges.Notice notice) {
        if (initialized) {
            notice.methods(requests.profileName()).forEach(method -> outside.send(new Notification(method, null)));
        }
        listens.values().forEach(listen -> listen.listsChanged(notice));
    }

    /** The host can hear mcpx outside its calls again (a new listen stream): roots wanted meanwhile are asked now. */
    public void reachable() {
        if (rootsWanted) {
            fetchRoots();
        }
    }

    /** Asks an initialized host that declared {@code roots} for them, for the upstreams' asks outside a call. */
    private void fetchRoots() {
        HostAsks current = asks;
        if (!initialized || !current.capabilities().has("roots")) {
            return;
        }
        rootsWanted = true;
        Thread.ofVirtual().name("mcpx-host-roots").start(() -> {
            try {
                JsonNode listed = current.forCall(message -> {
                    boolean sent = outside.send(message);
                    rootsWanted = !sent;
                    return sent;
                }, null).handle(Methods.ROOTS_LIST, null);
                requests.roots().put(this, listed.path("roots"));
                if (ended.get()) {
                    // it ended while the host answered: its roots are no longer anyone's
                    requests.roots().remove(this);
                }
            } catch (McpException e) {
                if (!rootsWanted) {
                    LOG.info("host {}: the host did not list its roots: {}", name, e.getMessage());
                }
            }
        });
    }

    /**
     * A legacy host subscribed to (or unsubscribed from) a resource through another replica's copy
     * of this session: this copy does the same, so updates reach its listen stream here too.
     */
    public void follow(Request subscription) {
        requests.subscription(subscription, updates);
    }

    /**
     * The host can send nothing more ({@code reason}: it closed stdin) but may still read: its
     * listens end, and the upstreams' requests waiting for its answers fail, now; its requests in
     * flight run on to their answers.
     */
    public void inputEnded(String reason) {
        inputEnded = reason;
        listens.values().forEach(Listen::close);
        listens.clear();
    }

    /** The host went away, or its session ended: its requests are cancelled, what it held is released. Once. */
    public void end(String reason) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        inFlight.values().forEach(cancellation -> cancellation.cancel(reason));
        requests.release(updates);
        Runnable stop = stopLogs.getAndSet(NOT_HEARING);
        if (stop != null) {
            stop.run();
        }
        listens.values().forEach(Listen::close);
        listens.clear();
        requests.roots().remove(this);
        if (version != null) {
            requests.sessionEnded(version, System.nanoTime() - sinceNanos);
        }
    }
}

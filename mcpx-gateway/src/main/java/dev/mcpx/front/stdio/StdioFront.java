package dev.mcpx.front.stdio;

import dev.mcpx.client.Cancellation;
import dev.mcpx.front.CallLimit;
import dev.mcpx.front.FrontLimits;
import dev.mcpx.front.HostAsks;
import dev.mcpx.front.HostRequests;
import dev.mcpx.front.ListChanges;
import dev.mcpx.front.ListenUpdates;
import dev.mcpx.front.SubscriptionFlags;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.router.LogLevel;
import dev.mcpx.router.ResourceSubscriptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Serves one host over stdin/stdout, newline-delimited JSON: stdout carries nothing but MCP.
 * Each request runs on its own virtual thread; {@code notifications/cancelled} cancels it; the
 * host closing stdin cancels everything still running.
 */
public final class StdioFront {

    private static final Logger LOG = LoggerFactory.getLogger(StdioFront.class);

    private final HostRequests requests;
    private final ListChanges changes;
    private final InputStream in;
    private final OutputStream out;
    private final JsonRpcCodec codec = new JsonRpcCodec();
    private final ReentrantLock writing = new ReentrantLock();
    private final Map<RequestId, Cancellation> inFlight = new ConcurrentHashMap<>();
    private final Map<RequestId, ObjectNode> subscriptions = new ConcurrentHashMap<>();
    private final Map<RequestId, ListenUpdates> listenUpdates = new ConcurrentHashMap<>();
    /** A legacy host's resource updates come as plain notifications once it is initialized. */
    private final ResourceSubscriptions.Subscriber legacyUpdates = params -> {
        if (this.legacyInitialized) {
            send(new Notification(Methods.RESOURCES_UPDATED, params));
        }
    };
    private final FrontLimits limits;
    private final CallLimit limit;
    private volatile boolean legacyInitialized;

    public StdioFront(HostRequests requests, ListChanges changes, InputStream in, OutputStream out) {
        this(requests, changes, FrontLimits.DEFAULTS, in, out);
    }

    public StdioFront(HostRequests requests, ListChanges changes, FrontLimits limits, InputStream in, OutputStream out) {
        this.requests = requests;
        this.changes = changes;
        this.limits = limits;
        this.limit = limits.callLimit();
        this.in = in;
        this.out = out;
    }

    /** How long an upstream's sampling/elicitation/roots request waits for the host's answer. */
    private static final Duration HOST_ANSWER_TIMEOUT = Duration.ofMinutes(5);
    /** Server->client requests passed to a legacy host (its capabilities come with initialize). */
    private volatile HostAsks asks = new HostAsks(null, HOST_ANSWER_TIMEOUT);
    /** Set when stdin closed: roots that arrive after it are not kept. */
    private volatile boolean hostGone;
    /** The level a legacy host set with logging/setLevel (null: none yet). */
    private volatile LogLevel logLevel;

    /** The version the host spoke (its initialize's, or the modern one), null until its first request. */
    private volatile String sessionVersion;
    private volatile long sessionSinceNanos;

    /** Serves until the host closes stdin. */
    public void run() throws IOException {
        Runnable unsubscribe = changes.subscribe(this::listsChanged);
        try (in) {
            HostLines lines = new HostLines(in, limits.maxMessageBytes());
            for (HostLines.Line line = lines.next(); line != null; line = lines.next()) {
                switch (line) {
                    case HostLines.Line.Text text when !text.value().isBlank() -> receive(text.value());
                    case HostLines.Line.Text blank -> {
                        // blank lines between messages are allowed
                    }
                    case HostLines.Line.TooLong tooLong -> {
                        requests.refused("maxMessageBytes");
                        send(new ErrorResponse(null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                                "message too large: the limit is " + limits.maxMessageBytes() + " bytes (maxMessageBytes)")));
                    }
                }
            }
        } finally {
            unsubscribe.run();
            requests.release(legacyUpdates);
            listenUpdates.values().forEach(requests::release);
            inFlight.values().forEach(cancellation -> cancellation.cancel("host disconnected"));
            hostGone = true;
            requests.roots().remove(this);
            if (sessionVersion != null) {
                requests.sessionEnded(sessionVersion, System.nanoTime() - sessionSinceNanos);
            }
            LOG.info("host closed stdin; {} calls cancelled", inFlight.size());
        }
    }

    private void receive(String line) {
        JsonRpcMessage hostMessage;
        try {
            hostMessage = codec.decode(line);
        } catch (MalformedMessageException e) {
            send(new ErrorResponse(e.id(), e.toError()));
            return;
        }
        switch (hostMessage) {
            case Request hostRequest when Methods.SUBSCRIPTIONS_LISTEN.equals(hostRequest.method()) -> listen(hostRequest);
            case Request hostRequest -> dispatch(hostRequest);
            case Notification notification -> notified(notification);
            default -> {
                // the host's answer to a sampling/elicitation/roots request mcpx passed to it
                if (!asks.complete(hostMessage)) {
                    LOG.debug("ignored a response from the host that answers no pending request");
                }
            }
        }
    }

    private void dispatch(Request hostRequest) {
        Cancellation cancellation = new Cancellation();
        if (!limit.tryAcquire()) {
            requests.refused("maxCallsPerHost");
            send(new ErrorResponse(hostRequest.id(), limit.refusal()));
            return;
        }
        if (inFlight.putIfAbsent(hostRequest.id(), cancellation) != null) {
            limit.release();
            send(new ErrorResponse(hostRequest.id(), JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                    "request id " + hostRequest.id() + " is already in use")));
            return;
        }
        Era era = HostRequests.eraOf(hostRequest);
        if (sessionVersion == null) {
            sessionSinceNanos = System.nanoTime();
            sessionVersion = era == Era.MODERN ? ProtocolVersion.LATEST_MODERN.wire() : "";
        }
        if (era == Era.LEGACY && Methods.INITIALIZE.equals(hostRequest.method())) {
            asks = new HostAsks(Json.objectAt(hostRequest.params(), "capabilities"), HOST_ANSWER_TIMEOUT, this::send);
        }
        HostAsks hostAsks = era == Era.LEGACY ? asks : null;
        Thread.ofVirtual().name("mcpx-host-" + hostRequest.method()).start(() -> {
            try {
                JsonRpcMessage hostResult = era == Era.LEGACY && HostRequests.SUBSCRIPTION_METHODS.contains(hostRequest.method())
                        ? requests.subscription(hostRequest, legacyUpdates) : requests.answer(hostRequest, era,
                        hostProgress -> send(new Notification(Methods.PROGRESS, hostProgress)), cancellation,
                        hostAsks == null ? null : hostAsks.capabilities(),
                        hostAsks == null ? null : hostAsks.forCall(message -> {
                            send(message);
                            return true;
                        }, cancellation),
                        hostLog -> send(new Notification(Methods.MESSAGE, hostLog)), logLevel, "stdio");
                if (Methods.INITIALIZE.equals(hostRequest.method())
                        && hostResult instanceof JsonRpcMessage.Result initialized) {
                    // the version mcpx agreed to, never the host's own string (a metric label)
                    sessionVersion = Objects.requireNonNullElse(Json.text(initialized.result(), "protocolVersion"), "");
                }
                if (Methods.LOGGING_SET_LEVEL.equals(hostRequest.method()) && !(hostResult instanceof ErrorResponse)) {
                    logLevel = LogLevel.parse(Json.text(hostRequest.params(), "level"));
                }
                // a request the host cancelled gets no response (MCP cancellation rules)
                if (!cancellation.isCancelled()) {
                    send(hostResult);
                }
            } finally {
                inFlight.remove(hostRequest.id());
                limit.release();
            }
        });
    }

    private void notified(Notification notification) {
        switch (notification.method()) {
            case Methods.INITIALIZED -> {
                legacyInitialized = true;
                fetchRoots();
            }
            case Methods.ROOTS_LIST_CHANGED -> fetchRoots();
            case Methods.CANCELLED -> {
                RequestId id = RequestId.fromJson(notification.params() == null ? null : notification.params().get("requestId"));
                Cancellation cancellation = id == null ? null : inFlight.get(id);
                if (cancellation != null) {
                    cancellation.cancel(Json.text(notification.params(), "reason"));
                }
                if (id != null) {
                    subscriptions.remove(id);
                    ListenUpdates updates = listenUpdates.remove(id);
                    if (updates != null) {
                        requests.release(updates);
                    }
                }
            }
            default -> LOG.debug("ignored host notification {}", notification.method());
        }
    }

    /** Asks a legacy host that declared {@code roots} for them, off the reader thread (its answer comes through it). */
    private void fetchRoots() {
        HostAsks current = asks;
        if (!current.capabilities().has("roots")) {
            return;
        }
        Thread.ofVirtual().name("mcpx-host-roots").start(() -> {
            try {
                JsonNode listed = current.forCall(message -> {
                    send(message);
                    return true;
                }, null).handle(Methods.ROOTS_LIST, null);
                requests.roots().put(this, listed.path("roots"));
                if (hostGone) {
                    requests.roots().remove(this);
                }
            } catch (McpException e) {
                LOG.info("the host did not list its roots: {}", e.getMessage());
            }
        });
    }

    /**
     * A modern host's {@code subscriptions/listen}: acknowledged once its resources are subscribed
     * (off the reader thread: that may wait for upstreams), answered never (it ends by cancel).
     */
    private void listen(Request hostRequest) {
        ObjectNode asked = Json.objectAt(hostRequest.params(), "notifications");
        ObjectNode agreed = Json.object();
        for (String flag : new String[] {"toolsListChanged", "promptsListChanged", "resourcesListChanged"}) {
            if (asked != null && asked.path(flag).asBoolean(false)) {
                agreed.put(flag, true);
            }
        }
        RequestId id = hostRequest.id();
        ListenUpdates updates = new ListenUpdates(id, this::send);
        listenUpdates.put(id, updates);
        Thread.ofVirtual().name("mcpx-host-listen").start(() -> {
            requests.subscribeAll(updates, asked, agreed);
            if (!listenUpdates.containsKey(id)) {
                requests.release(updates);
                return;
            }
            subscriptions.put(id, agreed);
            ObjectNode ack = Json.object();
            ack.putObject(MetaKeys.META).set(MetaKeys.SUBSCRIPTION_ID, id.toJson());
            ack.set("notifications", agreed);
            updates.open(new Notification(Methods.SUBSCRIPTIONS_ACKNOWLEDGED, ack));
        });
    }

    private void listsChanged(ListChanges.Notice notice) {
        for (String method : notice.methods(requests.profileName())) {
            if (legacyInitialized) {
                send(new Notification(method, null));
            }
            subscriptions.forEach((id, agreed) -> {
                if (agreed.path(SubscriptionFlags.of(method)).asBoolean(false)) {
                    ObjectNode params = Json.object();
                    params.putObject(MetaKeys.META).set(MetaKeys.SUBSCRIPTION_ID, id.toJson());
                    send(new Notification(method, params));
                }
            });
        }
    }

    /**
     * A host that reads slowly blocks this write: a lock, not a monitor (nor a PrintStream's), so
     * the waiting virtual threads do not pin their carriers (JDK 21-23). A host that went away
     * makes it fail quietly: its calls are cancelled when stdin closes.
     */
    private void send(JsonRpcMessage message) {
        byte[] line = (codec.encode(message) + "\n").getBytes(StandardCharsets.UTF_8);
        writing.lock();
        try {
            out.write(line);
            out.flush();
        } catch (IOException e) {
            LOG.debug("the host no longer reads stdout: {}", e.toString());
        } finally {
            writing.unlock();
        }
    }
}

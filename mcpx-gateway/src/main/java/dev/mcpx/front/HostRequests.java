package dev.mcpx.front;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.catalogue.HostView;
import dev.mcpx.catalogue.ListKind;
import dev.mcpx.catalogue.Profile;
import dev.mcpx.catalogue.Route;
import dev.mcpx.client.Cancellation;
import dev.mcpx.client.ServerRequestHandler;
import dev.mcpx.pool.Pool;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.TasksExtension;
import dev.mcpx.router.CallObserver;
import dev.mcpx.router.HeldCallRelay;
import dev.mcpx.router.HeldCalls;
import dev.mcpx.router.HostCall;
import dev.mcpx.router.LogLevel;
import dev.mcpx.router.ResourceSubscriptions;
import dev.mcpx.router.Router;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers one host request in either era, the same for every front: the lifecycle methods
 * ({@code initialize}, {@code server/discover}, {@code ping}) and the merged lists here, the
 * rest through the {@link Router}. Every request gets exactly one answer, never an exception.
 * An instance serves one profile ({@link #forProfile}): its hosts see only that profile's
 * catalogue, and a name outside it is unknown to them.
 */
public final class HostRequests {

    private static final Logger LOG = LoggerFactory.getLogger(HostRequests.class);
    static final String MODERN_VERSION = ProtocolVersion.LATEST_MODERN.wire();
    private static final long LIST_TTL_MS = 30_000;
    /** Legacy methods 2026-07-28 removed: a modern host calling them gets -32601. */
    public static final Set<String> REMOVED_IN_MODERN = Set.of(Methods.INITIALIZE, Methods.PING,
            Methods.LOGGING_SET_LEVEL, Methods.RESOURCES_SUBSCRIBE, Methods.RESOURCES_UNSUBSCRIBE);
    /** Legacy requests answered with {@link #subscription}, naming the host that subscribes. */
    public static final Set<String> SUBSCRIPTION_METHODS = Set.of(Methods.RESOURCES_SUBSCRIBE,
            Methods.RESOURCES_UNSUBSCRIBE);

    private final Catalogue catalogue;
    private final Pool pool;
    private final Router router;
    private final ResourceSubscriptions subscriptions;
    private final ServerIdentity identity;
    private final Duration startWait;
    private final int pageSize;
    private final HostRoots roots;
    /** The profile this instance serves; null for the default one ({@code /mcp}). */
    private final String profileName;
    private final HostObserver observer;

    public HostRequests(Catalogue catalogue, Pool pool, ServerIdentity identity, Duration startWait, int pageSize) {
        this(catalogue, pool, identity, startWait, pageSize, HeldCalls.Limits.DEFAULT);
    }

    /** {@code heldCalls}: bounds on modern hosts' calls to legacy upstreams held between MRTR rounds. */
    public HostRequests(Catalogue catalogue, Pool pool, ServerIdentity identity, Duration startWait, int pageSize,
                        HeldCalls.Limits heldCalls) {
        this(catalogue, pool, identity, startWait, pageSize, heldCalls, new HostRoots());
    }

    /** {@code roots}: where the fronts keep their hosts' roots for the upstreams' asks outside a call. */
    public HostRequests(Catalogue catalogue, Pool pool, ServerIdentity identity, Duration startWait, int pageSize,
                        HeldCalls.Limits heldCalls, HostRoots roots) {
        this(catalogue, pool, identity, startWait, pageSize, heldCalls, roots, HostObserver.NONE, CallObserver.NONE);
    }

    /** {@code hosts} hears every answer and refusal; {@code calls} every call routed to an upstream. */
    public HostRequests(Catalogue catalogue, Pool pool, ServerIdentity identity, Duration startWait, int pageSize,
                        HeldCalls.Limits heldCalls, HostRoots roots, HostObserver hosts, CallObserver calls) {
        this.roots = roots;
        this.observer = hosts;
        this.catalogue = catalogue;
        this.pool = pool;
        this.router = new Router(catalogue, pool, startWait, heldCalls, calls);
        this.subscriptions = new ResourceSubscriptions(router, pool);
        this.identity = identity;
        this.startWait = startWait;
        this.pageSize = pageSize;
        this.profileName = null;
    }

    private HostRequests(HostRequests shared, String profileName) {
        this.roots = shared.roots;
        this.observer = shared.observer;
        this.catalogue = shared.catalogue;
        this.pool = shared.pool;
        this.router = shared.router;
        this.subscriptions = shared.subscriptions;
        this.identity = shared.identity;
        this.startWait = shared.startWait;
        this.pageSize = shared.pageSize;
        this.profileName = profileName;
    }

    /**
     * The same gateway as seen by the hosts of profile {@code name} (null or empty: the default
     * one). Whether the profile exists is judged on each request, so a config edit that adds or
     * removes it applies at once.
     */
    public HostRequests forProfile(String name) {
        return new HostRequests(this, name == null || name.isEmpty() ? null : name);
    }

    /** The profile served, null for the default one. */
    public String profileName() {
        return profileName;
    }

    /** True when profile {@code name} is configured now (null or empty: the default one, always). */
    public boolean hasProfile(String name) {
        return catalogue.profiles().find(name).isPresent();
    }

    /** What this instance's hosts see now; a profile removed from the config leaves them nothing to use. */
    private HostView hostView() {
        Profile profile = catalogue.profiles().find(profileName).orElseThrow(() -> new McpErrorException(
                JsonRpcError.of(ErrorCodes.INVALID_REQUEST, "profile \"" + profileName + "\" is no longer configured")));
        return catalogue.view(profile);
    }

    /** The connected hosts' roots. */
    HostRoots roots() {
        return roots;
    }

    /** The inputSchema of a host-facing tool name, if the catalogue has that tool. */
    public Optional<JsonNode> toolInputSchema(String exposedName) {
        if (!hasProfile(profileName) || hostView().tool(exposedName).isEmpty()) {
            return Optional.empty();
        }
        return catalogue.listedTool(exposedName).map(tool -> tool.get("inputSchema"));
    }

    /** Modern hosts' calls to legacy upstreams waiting for the host's next MRTR round now. */
    public int heldCallCount() {
        return router.heldCallCount();
    }

    /**
     * A legacy host's {@code resources/subscribe} or {@code resources/unsubscribe}: {@code host}
     * receives the resource's updates until it unsubscribes or is {@link #release}d.
     */
    JsonRpcMessage subscription(Request hostRequest, ResourceSubscriptions.Subscriber host) {
        try {
            String uri = Json.text(hostRequest.params(), "uri");
            if (uri == null) {
                throw new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, "params.uri must be the resource's URI"));
            }
            if (Methods.RESOURCES_SUBSCRIBE.equals(hostRequest.method())) {
                admit(Methods.RESOURCES_READ, Json.object().put("uri", uri), hostView());
                subscriptions.subscribe(host, uri);
            } else {
                subscriptions.unsubscribe(host, uri);
            }
            return new Result(hostRequest.id(), Json.object());
        } catch (McpException e) {
            return new ErrorResponse(hostRequest.id(), e.toError());
        } catch (RuntimeException e) {
            LOG.warn("{} failed inside mcpx", hostRequest.method(), e);
            return new ErrorResponse(hostRequest.id(), JsonRpcError.of(ErrorCodes.INTERNAL_ERROR,
                    "mcpx failed on " + hostRequest.method() + ": " + e));
        }
    }

    /**
     * A modern host's {@code subscriptions/listen} asked for {@code asked.resourceSubscriptions}:
     * subscribes {@code host} to each and puts the ones that worked into {@code agreed} (the
     * acknowledgment omits what mcpx cannot honour, as the spec says).
     */
    void subscribeAll(ResourceSubscriptions.Subscriber host, ObjectNode asked, ObjectNode agreed) {
        if (asked == null || !(asked.get("resourceSubscriptions") instanceof ArrayNode uris)) {
            return;
        }
        ArrayNode honoured = Json.array();
        for (JsonNode uri : uris) {
            if (!uri.isString()) {
                continue;
            }
            try {
                admit(Methods.RESOURCES_READ, Json.object().put("uri", uri.asString()), hostView());
                subscriptions.subscribe(host, uri.asString());
                honoured.add(uri.asString());
            } catch (McpException e) {
                LOG.info("a host's subscription to {} is not honoured: {}", uri.asString(), e.getMessage());
            }
        }
        agreed.set("resourceSubscriptions", honoured);
    }

    /**
     * Passes {@code host} each log line that an upstream this profile takes sends outside its
     * calls. Returns the unsubscribe action.
     */
    Runnable onUpstreamLog(Consumer<ObjectNode> host) {
        return pool.onLogged((upstream, params) -> {
            if (catalogue.profiles().find(profileName).map(profile -> profile.takes(upstream)).orElse(false)) {
                host.accept(params);
            }
        });
    }

    /** The host is gone: its resource subscriptions end, and upstreams no host needs are released. */
    void release(ResourceSubscriptions.Subscriber host) {
        subscriptions.release(host);
    }

    /** A request answered by an upstream (through the router): it may be slow, and send progress and asks first. */
    public static boolean routed(String method) {
        return Router.ROUTED.contains(method);
    }

    /** Which era a request is in, by its body: modern requests carry their version in {@code _meta}. */
    public static Era eraOf(Request request) {
        ObjectNode meta = Json.objectAt(request.params(), MetaKeys.META);
        return meta != null && meta.has(MetaKeys.PROTOCOL_VERSION) ? Era.MODERN : Era.LEGACY;
    }

    /** A request of no host session (fronts answer through {@link HostSession}), without progress. */
    public JsonRpcMessage answer(Request hostRequest, Era era, Consumer<ObjectNode> hostProgress,
                                 Cancellation cancellation) {
        return answer(hostRequest, era, hostProgress, cancellation, null, null, null, null, null);
    }

    /**
     * As above, with what the host declared ({@code hostCapabilities}: a legacy host's from its
     * initialize; a modern host's come with each request), {@code hostAsks}, which sends an
     * upstream's server->client request to this host and returns its answer (null: none),
     * {@code hostLog}, which sends the upstream's {@code notifications/message} params to it during
     * the call (null: none), {@code legacyLogLevel}, the level a legacy host set with
     * {@code logging/setLevel} (null: none; a modern host's comes with each request), and
     * {@code hostSession}, the host's session as the audit log names it (null: none).
     */
    JsonRpcMessage answer(Request hostRequest, Era era, Consumer<ObjectNode> hostProgress,
                          Cancellation cancellation, ObjectNode hostCapabilities, ServerRequestHandler hostAsks,
                          Consumer<ObjectNode> hostLog, LogLevel legacyLogLevel, String hostSession) {
        try (CallLogContext context = CallLogContext.enter(hostRequest)) {
            long start = System.nanoTime();
            HostObserver.Answering answering = observer.answering(hostRequest, era, hostSession);
            context.traced(answering.traceId());
            JsonRpcMessage answer = null;
            try {
                answer = answered(hostRequest, era, hostProgress, cancellation, hostCapabilities, hostAsks,
                        hostLog, legacyLogLevel, hostSession);
            } finally {
                answering.answered(answer);
            }
            observer.answered(hostRequest, era, answer, System.nanoTime() - start);
            return answer;
        }
    }

    /** Modern hosts' retries of held calls reach the process that holds them through {@code relay}. */
    public void relayHeldCalls(HeldCallRelay relay) {
        router.relayHeldCalls(relay);
    }

    /**
     * Whether a legacy host's routed request, whose answer was lost with the replica that ran it,
     * may run once more: its upstream's rule for a lost stream (reads, idempotent methods, the
     * tool's annotations, the operator's {@code reissue}). False when that cannot be told (it
     * routes nowhere now, its upstream is down): the host then hears that the answer was lost.
     */
    public boolean harmlessToRepeat(Request hostRequest) {
        String method = hostRequest.method();
        if (!Router.ROUTED.contains(method)) {
            return false;
        }
        ObjectNode params = hostRequest.params();
        if (Methods.TOOLS_CALL.equals(method) && hostView().profile().search().enabled()) {
            String name = Json.text(params, "name");
            if (SearchMode.SEARCH.equals(name) || SearchMode.DESCRIBE.equals(name)) {
                return true;
            }
            if (SearchMode.CALL.equals(name)) {
                params = SearchMode.innerCall(params);
            }
        }
        try {
            return router.harmlessToRepeat(new HostCall(method, params, null, new Cancellation(), Era.LEGACY, null, null));
        } catch (McpException e) {
            LOG.info("{} cannot be told harmless to repeat: {}", method, e.getMessage());
            return false;
        }
    }

    /** The front turned a host request away at the operator's limit {@code limit}. */
    public void refused(String limit) {
        observer.refused(limit);
    }

    /** A host's session ended (see {@link HostObserver#sessionEnded}); {@link HostSession} reports it for both fronts. */
    void sessionEnded(String protocolVersion, long nanos) {
        observer.sessionEnded(protocolVersion, nanos);
    }

    private JsonRpcMessage answered(Request hostRequest, Era era, Consumer<ObjectNode> hostProgress,
                                    Cancellation cancellation, ObjectNode hostCapabilities, ServerRequestHandler hostAsks,
                                    Consumer<ObjectNode> hostLog, LogLevel legacyLogLevel, String hostSession) {
        try {
            if (era == Era.MODERN) {
                requireModernMeta(hostRequest);
                if (REMOVED_IN_MODERN.contains(hostRequest.method())) {
                    throw new McpErrorException(JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND,
                            "Method not found: " + hostRequest.method() + " does not exist in " + MODERN_VERSION));
                }
            }
            JsonNode hostResult = result(hostRequest, era, hostProgress, cancellation, hostCapabilities, hostAsks,
                    hostLog, legacyLogLevel, hostSession);
            return new Result(hostRequest.id(), era == Era.MODERN ? modern(hostRequest.method(), hostResult) : hostResult);
        } catch (McpException e) {
            return new ErrorResponse(hostRequest.id(), hostError(e.toError(), era));
        } catch (RuntimeException e) {
            LOG.warn("{} failed inside mcpx", hostRequest.method(), e);
            return new ErrorResponse(hostRequest.id(), JsonRpcError.of(ErrorCodes.INTERNAL_ERROR,
                    "mcpx failed on " + hostRequest.method() + ": " + e));
        }
    }

    private JsonNode result(Request hostRequest, Era era, Consumer<ObjectNode> hostProgress, Cancellation cancellation,
                            ObjectNode hostCapabilities, ServerRequestHandler hostAsks, Consumer<ObjectNode> hostLog,
                            LogLevel legacyLogLevel, String hostSession) {
        String method = hostRequest.method();
        ListKind list = ListKind.ofMethod(method);
        if (list != null) {
            return page(list, hostRequest.params());
        }
        if (Router.ROUTED.contains(method)) {
            ObjectNode meta = Json.objectAt(hostRequest.params(), MetaKeys.META);
            ObjectNode declared = era == Era.MODERN ? Json.objectAt(meta, MetaKeys.CLIENT_CAPABILITIES) : hostCapabilities;
            LogLevel logLevel = era == Era.MODERN ? LogLevel.parse(Json.text(meta, MetaKeys.LOG_LEVEL)) : legacyLogLevel;
            ObjectNode params = hostRequest.params();
            HostView hosts = hostView();
            if (Methods.TOOLS_CALL.equals(method) && hosts.profile().search().enabled()) {
                String name = Json.text(params, "name");
                if (SearchMode.SEARCH.equals(name) || SearchMode.DESCRIBE.equals(name)) {
                    // as a list does: upstreams still on their first start get a bounded wait
                    pool.awaitFirstAttempts(startWait);
                    hosts = hostView();
                    return SearchMode.SEARCH.equals(name) ? SearchMode.search(catalogue.index(hosts), params)
                            : SearchMode.describe(hosts, params);
                }
                if (SearchMode.CALL.equals(name)) {
                    params = SearchMode.innerCall(params);
                }
            }
            admit(method, params, hosts);
            return router.route(new HostCall(method, params, hostProgress, cancellation, era,
                    declared, hostAsks, hostLog, logLevel, hostSession, HostAsks.outsideCalls(hostAsks)));
        }
        if (Methods.LOGGING_SET_LEVEL.equals(method) && LogLevel.parse(Json.text(hostRequest.params(), "level")) == null) {
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS,
                    "params.level must be a log level (debug, info, notice, warning, error, critical, alert, emergency)"));
        }
        return switch (method) {
            case Methods.INITIALIZE -> identity.initializeResult(hostRequest.params(), subscriptions.available());
            case Methods.DISCOVER -> withExtensions(identity.discoverResult(subscriptions.available()));
            case Methods.RESOURCES_SUBSCRIBE, Methods.RESOURCES_UNSUBSCRIBE ->
                    throw new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                            method + " needs a session (initialize first)"));
            case Methods.PING, Methods.LOGGING_SET_LEVEL -> Json.object();
            default -> throw new McpErrorException(JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND,
                    "Method not found: " + method));
        };
    }

    /**
     * Refuses what the profile does not show as the router refuses what does not exist: an
     * unknown tool or prompt, a resource not found. A name not in the catalogue at all is left
     * to the router, which waits for upstreams still starting and says which one is down.
     */
    private void admit(String method, ObjectNode params, HostView hosts) {
        if (hosts.profile().whole()) {
            return;
        }
        switch (method) {
            case Methods.TOOLS_CALL -> admit(Json.text(params, "name"), hosts, HostView::tool, catalogue::tool,
                    name -> invalidParams("Unknown tool: " + name));
            case Methods.PROMPTS_GET -> admit(Json.text(params, "name"), hosts, HostView::prompt, catalogue::prompt,
                    name -> invalidParams("Unknown prompt: " + name));
            case Methods.RESOURCES_READ -> admit(Json.text(params, "uri"), hosts, HostView::resource,
                    catalogue::resource, HostRequests::resourceNotFound);
            case Methods.COMPLETION_COMPLETE -> {
                ObjectNode ref = Json.objectAt(params, "ref");
                if ("ref/prompt".equals(Json.text(ref, "type"))) {
                    admit(Json.text(ref, "name"), hosts, HostView::prompt, catalogue::prompt,
                            name -> invalidParams("Unknown prompt: " + name));
                } else if ("ref/resource".equals(Json.text(ref, "type"))) {
                    admit(Json.text(ref, "uri"), hosts, HostView::resource, catalogue::resource,
                            HostRequests::resourceNotFound);
                }
            }
            default -> {
                // tasks are the host's own: their ids are unguessable and came from its calls
            }
        }
    }

    private void admit(String key, HostView hosts, BiFunction<HostView, String, Optional<Route>> seen,
                       Function<String, Optional<Route>> anywhere, Function<String, McpErrorException> refusal) {
        if (key == null || seen.apply(hosts, key).isPresent()) {
            return;
        }
        if (anywhere.apply(key).isEmpty()) {
            pool.awaitFirstAttempts(startWait);
            if (anywhere.apply(key).isEmpty()) {
                return;
            }
            if (seen.apply(hostView(), key).isPresent()) {
                return;
            }
        }
        throw refusal.apply(key);
    }

    private static McpErrorException invalidParams(String message) {
        return new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, message));
    }

    private static McpErrorException resourceNotFound(String uri) {
        return new McpErrorException(new JsonRpcError(ErrorCodes.RESOURCE_NOT_FOUND_LEGACY, "Resource not found: " + uri,
                Json.object().put("uri", uri)));
    }

    /** The extensions mcpx passes through: tasks, once an upstream that is up offers it. */
    private ObjectNode withExtensions(ObjectNode discovered) {
        pool.awaitFirstAttempts(startWait);
        if (router.offersTasks()) {
            ObjectNode capabilities = (ObjectNode) discovered.get("capabilities");
            ObjectNode extensions = Json.objectAt(capabilities, "extensions");
            (extensions != null ? extensions : capabilities.putObject("extensions")).putObject(TasksExtension.ID);
        }
        return discovered;
    }

    /** One page of a merged list; the first waits a bounded time for upstreams still starting or refreshing. */
    private ObjectNode page(ListKind kind, ObjectNode params) {
        pool.awaitFirstAttempts(startWait);
        String cursor = Json.text(params, "cursor");
        if (cursor == null) {
            // lists are not trusted forever: one whose upstream ttlMs ran out is read again first
            pool.refreshExpired(kind, startWait);
        }
        HostView hosts = hostView();
        Catalogue.Page page = kind == ListKind.TOOLS && hosts.profile().search().enabled()
                ? Catalogue.page(SearchMode.listed(hosts), cursor, pageSize) : hosts.page(kind, cursor, pageSize);
        ObjectNode result = Json.object();
        var items = result.putArray(kind.field());
        page.items().forEach(items::add);
        if (page.nextCursor() != null) {
            result.put("nextCursor", page.nextCursor());
        }
        return result;
    }

    /**
     * The per-request {@code _meta} a 2026-07-28 request must carry: a version mcpx speaks
     * (-32022 otherwise) and the client's capabilities (-32602 when missing).
     */
    public static void requireModernMeta(Request hostRequest) {
        ObjectNode meta = Json.objectAt(hostRequest.params(), MetaKeys.META);
        if (meta == null) {
            throw invalidMeta("params._meta is required in " + MODERN_VERSION);
        }
        String requested = Json.text(meta, MetaKeys.PROTOCOL_VERSION);
        if (requested == null) {
            throw invalidMeta("_meta." + MetaKeys.PROTOCOL_VERSION + " is required");
        }
        if (!MODERN_VERSION.equals(requested)) {
            throw unsupportedVersion(requested);
        }
        if (!(meta.get(MetaKeys.CLIENT_CAPABILITIES) instanceof ObjectNode)) {
            throw invalidMeta("_meta." + MetaKeys.CLIENT_CAPABILITIES + " is required (an object, {} for none)");
        }
    }

    private static McpErrorException invalidMeta(String message) {
        return new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, "Invalid _meta: " + message));
    }

    /** -32022 with the versions a stateless request may name (legacy ones need initialize). */
    public static McpErrorException unsupportedVersion(String requested) {
        ObjectNode data = Json.object();
        data.putArray("supported").add(MODERN_VERSION);
        data.put("requested", requested == null ? "" : requested);
        return new McpErrorException(new JsonRpcError(ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version: " + requested, data));
    }

    /** Modern results carry {@code resultType}, cache hints on cacheable ones, and who answered. */
    private JsonNode modern(String method, JsonNode hostResult) {
        if (!(hostResult instanceof ObjectNode result)) {
            return hostResult;
        }
        if (!result.has("resultType")) {
            result.put("resultType", "complete");
        }
        boolean cacheable = ListKind.ofMethod(method) != null || Methods.RESOURCES_READ.equals(method)
                || Methods.DISCOVER.equals(method);
        if (cacheable && !result.has("ttlMs")) {
            result.put("ttlMs", Methods.RESOURCES_READ.equals(method) ? 0 : LIST_TTL_MS);
        }
        if (cacheable && !result.has("cacheScope")) {
            result.put("cacheScope", "private");
        }
        ObjectNode meta = Json.objectAt(result, MetaKeys.META);
        if (meta == null) {
            meta = result.putObject(MetaKeys.META);
        }
        meta.set(MetaKeys.SERVER_INFO, identity.serverInfo());
        return result;
    }

    /** The same failure in the host's era: 2026-07-28 moved "resource not found" to -32602. */
    private static JsonRpcError hostError(JsonRpcError error, Era era) {
        if (era == Era.MODERN && error.code() == ErrorCodes.RESOURCE_NOT_FOUND_LEGACY) {
            return new JsonRpcError(ErrorCodes.INVALID_PARAMS, error.message(), error.data());
        }
        return error;
    }
}

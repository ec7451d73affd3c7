package dev.mcpx.router;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.catalogue.Route;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.client.ServerRequestHandler;
import dev.mcpx.pool.LoginTool;
import dev.mcpx.pool.Pool;
import dev.mcpx.pool.Upstream;
import dev.mcpx.pool.UpstreamState;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.client.Cancellation;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.NeedsLoginException;
import dev.mcpx.protocol.TasksExtension;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Maps a host request to (upstream, original name) and sends it through that upstream's client,
 * so both recoveries apply. Params and results pass through as trees: only the name (or the
 * completion ref, or a task id: {@link TaskRoutes}) is rewritten, and the host's protocol
 * {@code _meta} is replaced by the client's.
 */
public final class Router {

    /**
     * The methods the router forwards; everything else the front answers itself (resource
     * subscriptions belong to a host session: {@link ResourceSubscriptions}).
     */
    public static final Set<String> ROUTED = Set.of(Methods.TOOLS_CALL, Methods.PROMPTS_GET, Methods.RESOURCES_READ,
            Methods.COMPLETION_COMPLETE, Methods.TASKS_GET, Methods.TASKS_UPDATE, Methods.TASKS_CANCEL);

    private final Catalogue catalogue;
    private final Pool pool;
    private final Duration startWait;
    private final TaskRoutes tasks;
    private final HeldCalls heldCalls;
    private final CallObserver observer;
    /** Logins offered to hosts; each waits for its user as long as {@code mcpx login} does by default. */
    private final HostLogins logins = new HostLogins(Duration.ofMinutes(5));

    /** {@code startWait}: how long a name not (yet) in the catalogue waits for upstreams still starting. */
    public Router(Catalogue catalogue, Pool pool, Duration startWait) {
        this(catalogue, pool, startWait, HeldCalls.Limits.DEFAULT);
    }

    /** {@code heldCalls}: bounds on modern hosts' calls to legacy upstreams held between MRTR rounds. */
    public Router(Catalogue catalogue, Pool pool, Duration startWait, HeldCalls.Limits heldCalls) {
        this(catalogue, pool, startWait, heldCalls, CallObserver.NONE);
    }

    /** {@code observer}: told of every call sent to an upstream (metrics, the audit log). */
    public Router(Catalogue catalogue, Pool pool, Duration startWait, HeldCalls.Limits heldCalls, CallObserver observer) {
        this.observer = observer;
        this.catalogue = catalogue;
        this.pool = pool;
        this.startWait = startWait;
        this.tasks = new TaskRoutes(pool);
        this.heldCalls = new HeldCalls(heldCalls);
    }

    /** Whether hosts are offered the tasks extension: some upstream offers it, and its tasks pass through. */
    public boolean offersTasks() {
        return tasks.offered();
    }

    /** Modern hosts' calls to legacy upstreams waiting for the host's next MRTR round now. */
    public int heldCallCount() {
        return heldCalls.size();
    }

    /**
     * The upstream's result for {@code call}, unchanged (an {@code isError} tool result included);
     * for an upstream that needs a login, the offer of it to a host that can show a URL
     * ({@link HostLogins}).
     *
     * @throws dev.mcpx.protocol.McpException what the host is answered with instead
     */
    public JsonNode route(HostCall call) {
        HostCall resumed = logins.resume(call);
        Upstream awaitingLogin = loginToolOf(resumed);
        if (awaitingLogin != null) {
            return logIn(resumed, awaitingLogin);
        }
        try {
            return routeOnce(resumed);
        } catch (LoginNeeded needed) {
            return logins.offer(resumed, needed.upstream, needed.refusal, () -> {
                try {
                    return routeOnce(resumed);
                } catch (LoginNeeded again) {
                    throw again.refusal;
                }
            });
        }
    }

    /**
     * The upstream whose {@link LoginTool} {@code call} names, or null: while the upstream waits for
     * a login the tool is listed; once it is up, a host that calls it still (its retry after the
     * login, or a stale list) is told it is done, unless the upstream has a tool of that name.
     */
    private Upstream loginToolOf(HostCall call) {
        String name = Methods.TOOLS_CALL.equals(call.method()) ? Json.text(call.params(), "name") : null;
        if (name == null || !name.endsWith("__" + LoginTool.NAME)) {
            return null;
        }
        for (Upstream upstream : pool.upstreams()) {
            String prefix = upstream.config().prefix();
            if (!prefix.isEmpty() && name.equals(prefix + "__" + LoginTool.NAME) && LoginTool.offeredFor(upstream.config())) {
                boolean ownTool = upstream.state() == UpstreamState.UP && catalogue.tool(name).isPresent();
                return ownTool ? null : upstream;
            }
        }
        return null;
    }

    /** A call of {@code upstream}'s login tool: the login offered as any call of its would be, then its confirmation. */
    private JsonNode logIn(HostCall call, Upstream upstream) {
        if (upstream.state() == UpstreamState.UP) {
            return LoginTool.loggedIn(upstream.name());
        }
        UpstreamStatus status = upstream.status();
        NeedsLoginException refusal = new NeedsLoginException("upstream \"" + upstream.name() + "\" needs a login"
                + (status.reason() == null ? "" : " (" + status.reason() + ")") + ": run `mcpx login " + upstream.name()
                + "`, or call " + call.params().path("name").asString() + " from a host that can show a login link", null);
        return logins.offer(call, upstream, refusal, () -> {
            if (upstream.state() != UpstreamState.UP) {
                throw refusal;
            }
            return LoginTool.loggedIn(upstream.name());
        });
    }

    /** An upstream refused a call for want of a login: the host may be offered it ({@link HostLogins}). */
    private static final class LoginNeeded extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Upstream upstream;
        private final McpException refusal;

        LoginNeeded(Upstream upstream, McpException refusal) {
            super(refusal.getMessage(), null, false, false);
            this.upstream = upstream;
            this.refusal = refusal;
        }
    }

    private JsonNode routeOnce(HostCall call) {
        ObjectNode hostRequest = call.params() == null ? Json.object() : call.params();
        ObjectNode upstreamRequest = withoutHostMeta(hostRequest);
        Route route = resolve(call, hostRequest, upstreamRequest);
        Upstream upstream = pool.require(route.upstream());
        UpstreamStatus status = upstream.status();
        URI address = upstream.config().endpoint() instanceof UpstreamEndpoint.Http http ? http.url() : null;
        CallObserver.Routed observed = observer.routing(route.upstream(), status.transport(), address,
                status.protocolVersion(), call, route.upstreamName());
        try {
            observed.sending(upstreamRequest);
            JsonNode hostResult = routed(call, upstream, status.era(), upstreamRequest, observed);
            observed.answered(hostResult);
            return hostResult;
        } catch (McpException e) {
            observed.failed(e);
            if (e instanceof NeedsLoginException) {
                throw new LoginNeeded(upstream, e);
            }
            throw e;
        }
    }

    /**
     * Held calls' retries that land here for another process go through {@code relay}; the ones
     * other processes forward here are routed as if their host had sent them here.
     */
    public void relayHeldCalls(HeldCallRelay relay) {
        heldCalls.relayThrough(relay, (method, hostParams, hostCapabilities) -> route(new HostCall(method, hostParams,
                null, new Cancellation(), Era.MODERN, hostCapabilities, null)));
    }

    /** The upstream and name {@code call} goes to; {@code upstreamRequest} gets the upstream's names. */
    private Route resolve(HostCall call, ObjectNode hostRequest, ObjectNode upstreamRequest) {
        return switch (call.method()) {
            case Methods.TOOLS_CALL -> named(hostRequest, upstreamRequest, settled(catalogue::tool), "tool");
            case Methods.PROMPTS_GET -> named(hostRequest, upstreamRequest, settled(catalogue::prompt), "prompt");
            case Methods.RESOURCES_READ -> byUri(Json.text(hostRequest, "uri"));
            case Methods.COMPLETION_COMPLETE -> completionRef(upstreamRequest);
            case Methods.TASKS_GET, Methods.TASKS_UPDATE, Methods.TASKS_CANCEL -> tasks.route(call, upstreamRequest);
            default -> throw new McpErrorException(JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND,
                    "Method not found: " + call.method()));
        };
    }

    /**
     * Whether {@code call} may run once more after its first answer was lost with the replica
     * that ran it: its upstream's rule for a lost stream ({@link Upstream#harmlessToRepeat}).
     *
     * @throws McpException it no longer routes anywhere, or its upstream is down
     */
    public boolean harmlessToRepeat(HostCall call) {
        ObjectNode hostRequest = call.params() == null ? Json.object() : call.params();
        ObjectNode upstreamRequest = withoutHostMeta(hostRequest);
        Route route = resolve(call, hostRequest, upstreamRequest);
        return pool.require(route.upstream()).harmlessToRepeat(call.method(), upstreamRequest);
    }

    private JsonNode routed(HostCall call, Upstream upstream, String upstreamEra, ObjectNode upstreamRequest,
                            CallObserver.Routed observed) {
        ObjectNode hostRequest = call.params() == null ? Json.object() : call.params();
        CallLogs.askUpstream(call, upstreamRequest, "modern".equals(upstreamEra));
        if (call.hostEra() == Era.MODERN && "legacy".equals(upstreamEra) && HeldCalls.BRIDGED.contains(call.method())) {
            return heldCalls.route(call, upstream, upstreamRequest, observed::recovered);
        }
        RequestOptions options = RequestOptions.defaults().withCancellation(call.cancellation())
                .withLogs(CallLogs.toHost(call)).withRecoveries(observed::recovered);
        options = withHostInteraction(options, call);
        JsonNode hostToken = progressToken(hostRequest);
        if (hostToken != null && call.hostProgress() != null) {
            options = options.withProgress(upstreamProgress -> {
                ObjectNode hostProgress = upstreamProgress.deepCopy();
                hostProgress.set(MetaKeys.PROGRESS_TOKEN, hostToken);
                call.hostProgress().accept(hostProgress);
            });
        }
        try {
            JsonNode upstreamResult = upstream.request(call.method(), upstreamRequest, options);
            // a host that did not opt in (a legacy one cannot) could not poll the task: it gets the outcome
            boolean hostPolls = call.hostEra() == Era.MODERN && TasksExtension.declaredIn(call.hostCapabilities());
            if (!hostPolls && TasksExtension.isCreateTaskResult(upstreamResult)
                    && upstreamResult instanceof ObjectNode created) {
                return TaskWait.outcome(upstream, created, call.cancellation());
            }
            return TaskRoutes.hostResult(call.method(), upstream, upstreamResult);
        } catch (McpErrorException e) {
            throw TasksExtension.METHODS.contains(call.method()) ? TaskRoutes.hostError(upstream, e) : e;
        }
    }

    /**
     * Server->client interactions with the host. A modern host gets a modern upstream's
     * InputRequiredResult and retries itself (requestState passes through untouched); a legacy
     * upstream's requests to it are held by {@link HeldCalls} (tools, prompts, resources) or
     * refused. A legacy host is asked over its own connection ({@code call.hostAsks()}), whether
     * the upstream asks with a request (legacy) or an InputRequiredResult, which the client then
     * resolves round by round; a modern upstream is told the host's own capabilities.
     */
    private static RequestOptions withHostInteraction(RequestOptions options, HostCall call) {
        if (call.hostEra() == null) {
            return options;
        }
        if (call.hostEra() == Era.MODERN) {
            ObjectNode declared = call.hostCapabilities() != null ? call.hostCapabilities() : Json.object();
            return options.withClientCapabilities(declared).withReturnInputRequired(true)
                    .withServerRequests(refusing("a modern host during " + call.method()));
        }
        ServerRequestHandler hostAsks = call.hostAsks();
        if (hostAsks == null) {
            return options.withClientCapabilities(Json.object()).withServerRequests(refusing("this host"));
        }
        return options.withClientCapabilities(HostCapabilities.modernFromLegacy(call.hostCapabilities()))
                .withServerRequests(hostAsks);
    }

    private static ServerRequestHandler refusing(String host) {
        return (method, params) -> {
            if (Methods.PING.equals(method)) {
                return Json.object();
            }
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND, "mcpx cannot pass " + method
                    + " from the upstream to " + host));
        };
    }

    private Route named(ObjectNode hostRequest, ObjectNode upstreamRequest,
                               Function<String, Optional<Route>> lookup, String what) {
        String name = Json.text(hostRequest, "name");
        if (name == null) {
            throw invalidParams("params.name must be the " + what + "'s name");
        }
        Route route = lookup.apply(name).orElseThrow(() -> unknown(what, name));
        upstreamRequest.put("name", route.upstreamName());
        return route;
    }

    /** The upstream serving {@code uri}; unknown URIs are the host's resource-not-found error. */
    Route resourceRoute(String uri) {
        return byUri(uri);
    }

    private Route byUri(String uri) {
        if (uri == null) {
            throw invalidParams("params.uri must be the resource's URI");
        }
        return settled(catalogue::resource).apply(uri).orElseThrow(() -> new McpErrorException(new JsonRpcError(
                ErrorCodes.RESOURCE_NOT_FOUND_LEGACY, "Resource not found: " + uri, Json.object().put("uri", uri))));
    }

    /** {@code ref/prompt} routes by the prompt's exposed name (rewritten), {@code ref/resource} by URI. */
    private Route completionRef(ObjectNode upstreamRequest) {
        ObjectNode ref = Json.objectAt(upstreamRequest, "ref");
        String type = Json.text(ref, "type");
        if ("ref/prompt".equals(type)) {
            String name = Json.text(ref, "name");
            Route route = settled(catalogue::prompt).apply(name == null ? "" : name)
                    .orElseThrow(() -> invalidParams("Unknown prompt: " + name));
            ref.put("name", route.upstreamName());
            return route;
        }
        if ("ref/resource".equals(type)) {
            return byUri(Json.text(ref, "uri"));
        }
        throw invalidParams("params.ref.type must be ref/prompt or ref/resource");
    }

    /**
     * Why {@code name} is not in the catalogue: its upstream is down (the host should hear which
     * and why), or there is no such tool or prompt at all.
     */
    private RuntimeException unknown(String what, String name) {
        for (Upstream upstream : pool.upstreams()) {
            String prefix = upstream.config().prefix();
            if (!prefix.isEmpty() && name.startsWith(prefix + "__") && upstream.state() != UpstreamState.UP) {
                UpstreamStatus status = upstream.status();
                UpstreamUnavailableException unavailable = new UpstreamUnavailableException("upstream \""
                        + upstream.name() + "\" is " + status.state() + (status.reason() == null ? "" : ": "
                        + status.reason()) + "; its " + what + " " + name + " is unavailable");
                return upstream.state() == UpstreamState.NEEDS_LOGIN ? new LoginNeeded(upstream, unavailable) : unavailable;
            }
        }
        return invalidParams("Unknown " + what + ": " + name);
    }

    /**
     * A lookup that, on a miss, waits for upstreams still on their first start ({@code startWait}),
     * and for the one the name's prefix names up to its request timeout, and looks again.
     */
    private Function<String, Optional<Route>> settled(Function<String, Optional<Route>> lookup) {
        return key -> {
            Optional<Route> route = lookup.apply(key);
            if (route.isPresent()) {
                return route;
            }
            pool.awaitFirstAttempts(startWait);
            route = lookup.apply(key);
            return route.isEmpty() && pool.awaitFirstAttemptOf(key) ? lookup.apply(key) : route;
        };
    }

    /** A copy without the host's progress token and protocol keys: the client sets its own. */
    private static ObjectNode withoutHostMeta(ObjectNode hostRequest) {
        ObjectNode copy = hostRequest.deepCopy();
        ObjectNode meta = Json.objectAt(copy, MetaKeys.META);
        if (meta != null) {
            meta.remove(MetaKeys.PROGRESS_TOKEN);
            meta.propertyNames().stream().filter(key -> key.startsWith("io.modelcontextprotocol/")).toList()
                    .forEach(meta::remove);
            if (meta.isEmpty()) {
                copy.remove(MetaKeys.META);
            }
        }
        return copy;
    }

    static JsonNode progressToken(ObjectNode hostRequest) {
        ObjectNode meta = Json.objectAt(hostRequest, MetaKeys.META);
        JsonNode token = meta == null ? null : meta.get(MetaKeys.PROGRESS_TOKEN);
        return token == null || token.isNull() ? null : token;
    }

    private static McpErrorException invalidParams(String message) {
        return new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, message));
    }
}

package dev.mcpx.client;

import dev.mcpx.client.Exchange.Attempt;
import dev.mcpx.protocol.AuthorizationRequiredException;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.SessionExpiredException;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.ToolDescriptor;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.transport.HttpAuthorization;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportKind;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A connection to one MCP upstream, in either era. Blocking API: call it from as many (virtual)
 * threads as you like. Every request passes through one choke point, {@link #request}, where
 * both recoveries live: a legacy session that died is re-initialized once and the request
 * retried once (Phase 1); a modern response stream that broke, or a POST of either era that got
 * no response at all (a dead kept-alive connection), is sent once more when a repeat is known to
 * be harmless (Phase 2, {@link Resends}); an HTTP upstream redeployed in the other era is probed
 * again once and spoken to in its new era ({@link EraSwitch}). What is recovered, and the
 * bounds, are decided in one place, {@link Recovery}; a fault that repeats makes the client
 * refuse requests at once until it heals ({@link #degradedReason}). Era detection itself is
 * {@link EraDetection}.
 */
public final class McpClient implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(McpClient.class);

    private final String name;
    private final UpstreamEndpoint endpoint;
    private final Transport givenTransport;
    private final ObjectNode clientInfo;
    private final ObjectNode capabilities;
    private final ResultTypes resultTypes;
    private final Duration requestTimeout;
    private final ServerRequestHandler serverRequests;
    private final Consumer<ClientEvent> events;
    private final Resends resends;
    private final ProtocolVersion pinnedVersion;

    private final PendingRequests pending = new PendingRequests();
    private final SessionRecovery sessions = new SessionRecovery();
    private final FaultCondition condition;
    private final Recovery recovery;
    private final ClientCounters counters = new ClientCounters();
    private final EraDetection detection;
    private final EraSwitch eraSwitch;
    private final Inbound inbound;
    private final Catalogues catalogues;
    private final RequestParams requestParams;
    private final Exchange exchange;
    private final Subscriptions subscriptions;

    private volatile Transport transport;
    private volatile ServerDescription server;
    private volatile McpException closedBy;
    private volatile boolean closed;

    private McpClient(Builder builder) {
        this.name = builder.name;
        this.endpoint = builder.endpoint;
        this.givenTransport = builder.transport;
        this.clientInfo = Json.object().put("name", builder.clientName).put("version", builder.clientVersion);
        this.capabilities = builder.capabilities.deepCopy();
        this.resultTypes = new ResultTypes(builder.handledResultTypes);
        this.requestTimeout = builder.requestTimeout;
        this.serverRequests = builder.serverRequests;
        this.events = builder.events;
        this.resends = new Resends(name, new ReissuePolicy(builder.reissue), counters);
        this.pinnedVersion = builder.protocolVersion;
        this.detection = new EraDetection(name, endpoint, new TransportOpener(builder.maxMessageChars,
                builder.maxSseEventBytes != null ? builder.maxSseEventBytes : builder.maxMessageChars), builder.eraCache,
                pinnedVersion, requestTimeout, builder.probeTimeout, clientInfo, capabilities, resends, new DetectionLink());
        this.eraSwitch = new EraSwitch(name, detection, sessions, counters, this::emit, new SwitchLink());
        this.condition = new FaultCondition(name, builder.conditionBackoff, builder.maxConditionBackoff);
        this.requestParams = new RequestParams(clientInfo, capabilities, serverRequests);
        this.catalogues = new Catalogues(name, this::request, this::era, () -> transport);
        this.exchange = new Exchange(name, pending, sessions, eraSwitch, resends, requestParams, catalogues,
                requestTimeout, () -> transport, () -> server);
        this.subscriptions = new Subscriptions(name, builder.listenForChanges, requestTimeout, exchange, condition,
                this::request, () -> server, () -> transport);
        this.inbound = new Inbound(name, pending, sessions, serverRequests, resends, requestTimeout, new InboundLink());
        this.recovery = new Recovery(name, sessions, resends, catalogues::lookUpTool, detection::mayRedetect,
                eraSwitch::reprobes, pinnedVersion, condition, this::probeSessions);
    }

    public static Builder builder(UpstreamEndpoint endpoint) {
        return new Builder(endpoint, null);
    }

    /** A client on a transport the caller made; the era is detected as on stdio. */
    public static Builder builder(Transport transport) {
        return new Builder(null, transport);
    }

    /**
     * Opens the transport and agrees on an era and version: a {@code server/discover} probe
     * first; a legacy {@code initialize} when the upstream is not modern. Over HTTP a fresh
     * answer in the {@link EraCache} stands in for the probe.
     */
    public synchronized McpClient connect() {
        if (server != null) {
            return this;
        }
        // the handshake is a request too: a refusal of its credentials gets the same bounded renewal
        Recovery.Attempts attempts = Recovery.Attempts.start(Deadline.after(Methods.INITIALIZE, requestTimeout));
        while (true) {
            try {
                detection.connect(givenTransport);
                break;
            } catch (AuthorizationRequiredException refused) {
                Recovery.Action action = recovery.decide(new Recovery.Failure(refused, Methods.INITIALIZE, null,
                        Era.LEGACY, sessions.generation(), false), attempts);
                attempts = attempts.after(action);
                recover(action, Methods.INITIALIZE, null, null, null, attempts.deadline());
            }
        }
        log.debug("{}: connected, {} {} via {}", name, server.era(), server.protocolVersion(), transport.kind().label());
        subscriptions.startListening();
        return this;
    }

    /**
     * Asks for {@code notifications/resources/updated} on {@code uri}, delivered as
     * {@link ClientEvent.ResourceUpdated}: on a modern upstream through a
     * {@code subscriptions/listen} whose filter names it (returns once the upstream acknowledged
     * it), on a legacy one with {@code resources/subscribe}, sent again after a re-initialize.
     */
    public void subscribeResource(String uri) {
        requireConnected();
        subscriptions.subscribeResource(uri);
    }

    /** Stops the updates of {@code uri}; returns once none will arrive any more. */
    public void unsubscribeResource(String uri) {
        requireConnected();
        subscriptions.unsubscribeResource(uri);
    }

    /** Closes a transport the era detection gave up on; its closing is not the client's death. */
    private void detach(Transport rejected) {
        if (transport == rejected) {
            transport = null;
        }
        rejected.close();
    }

    private void attach(Transport candidate) {
        transport = candidate;
        // the death of a transport that was replaced is not this one's
        closedBy = null;
        candidate.start(event -> inbound.onTransportEvent(candidate, event));
    }

    public JsonNode request(String method, ObjectNode params) {
        return request(method, params, RequestOptions.defaults());
    }

    /**
     * Sends a request and waits for its result: the one choke point every request passes. The
     * request gets one deadline (its timeout, else the client's), which every retry,
     * re-initialize, re-issue and era switch below spends from; what is retried is
     * {@link Recovery}'s decision.
     *
     * @throws McpException the typed reason there is no result (the upstream's JSON-RPC error,
     *                      a timeout, a cancellation, a lost stream, an unavailable upstream)
     */
    public JsonNode request(String method, ObjectNode params, RequestOptions options) {
        requireConnected();
        counters.requests.incrementAndGet();
        try {
            return requestWithRecovery(method, params, IncreasingProgress.guard(options));
        } catch (McpException e) {
            counters.errors.incrementAndGet();
            throw e;
        }
    }

    private JsonNode requestWithRecovery(String method, ObjectNode params, RequestOptions options) {
        Deadline deadline = Deadline.after(method, options.timeout() != null ? options.timeout() : requestTimeout);
        Recovery.Attempts attempts = Recovery.Attempts.start(deadline);
        boolean probe = recovery.admit(method, attempts, true);
        try {
            return attempt(method, params, options, deadline, attempts);
        } catch (McpException e) {
            if (probe) {
                recovery.probeFailed();
            }
            throw e;
        }
    }

    private JsonNode attempt(String method, ObjectNode params, RequestOptions options, Deadline deadline,
                             Recovery.Attempts attempts) {
        ObjectNode current = params;
        boolean first = true;
        while (true) {
            if (!first) {
                recovery.admit(method, attempts, false);
            }
            first = false;
            Transport seenTransport = transport;
            ServerDescription seenServer = server;
            Attempt attempt = new Attempt(seenServer);
            JsonNode result;
            try {
                result = exchange.run(method, current, options.withTimeout(deadline.remaining()), attempt);
            } catch (McpException failure) {
                Recovery.Action action = recovery.decide(
                        new Recovery.Failure(failure, method, current, seenServer.era(), attempt.generation,
                                transport != seenTransport), attempts);
                attempts = attempts.after(action);
                tell(options, action);
                recover(action, method, attempt, seenTransport, seenServer, deadline);
                continue;
            }
            recovery.answered();
            if (era() == Era.MODERN && ResultTypes.INPUT_REQUIRED.equals(Json.text(result, "resultType"))) {
                if (options.returnInputRequired()) {
                    return result;
                }
                attempts = attempts.afterInputRound(method);
                current = requestParams.answerInputRequests(params, result, options);
                continue;
            }
            return era() == Era.MODERN ? resultTypes.requireRecognized(method, result, requestParams.declared(options)) : result;
        }
    }

    /** Tells the request's listener which recovery it is about to get; a lost response surfaced is a declined re-issue. */
    private void tell(RequestOptions options, Recovery.Action action) {
        if (options.recoveries() == null) {
            return;
        }
        RecoveryTaken taken = switch (action) {
            case Recovery.Action.Retry r -> RecoveryTaken.RETRY;
            case Recovery.Action.ReinitializeThenRetry r -> RecoveryTaken.REINITIALIZE;
            case Recovery.Action.Reissue r -> RecoveryTaken.REISSUE;
            case Recovery.Action.RefreshToolsThenRetry r -> RecoveryTaken.CORRECTION;
            case Recovery.Action.AdoptVersionThenRetry r -> RecoveryTaken.CORRECTION;
            case Recovery.Action.SwitchEra r -> RecoveryTaken.ERA_SWITCH;
            case Recovery.Action.RenewCredentialsThenRetry r -> RecoveryTaken.TOKEN_REFRESH;
            case Recovery.Action.RetryWithDpopNonce r -> RecoveryTaken.DPOP_NONCE;
            case Recovery.Action.Surface surface -> surface.error() instanceof StreamLostException
                    ? RecoveryTaken.REISSUE_DECLINED : null;
        };
        if (taken != null) {
            try {
                options.recoveries().accept(taken);
            } catch (RuntimeException e) {
                log.warn("{}: recovery listener failed on {}", name, taken, e);
            }
        }
    }

    /** Carries out what {@link Recovery#decide} chose; returns to retry, throws to surface. */
    private void recover(Recovery.Action action, String method, Attempt attempt, Transport seenTransport,
                         ServerDescription seenServer, Deadline deadline) {
        switch (action) {
            case Recovery.Action.Surface surface -> throw surface.error();
            case Recovery.Action.Retry retry -> log.debug("{}: {} never left; sending it on the new connection", name, method);
            case Recovery.Action.ReinitializeThenRetry reinit -> {
                if (recoverSession(reinit.seenGeneration(), reinit.deadSessionId(), deadline)
                        == SessionRecovery.Outcome.LOST_RIGHT_AFTER_INITIALIZE) {
                    throw recovery.sessionsLostRightAfterInitialize(method, null);
                }
            }
            case Recovery.Action.Reissue reissue -> resends.reissuing(method, attempt.id, reissue.lost());
            case Recovery.Action.RefreshToolsThenRetry refresh -> {
                log.info("{}: header mismatch on {}; refreshing tools/list and retrying once", name, method);
                catalogues.invalidate(CatalogueKind.TOOLS);
                listTools();
            }
            case Recovery.Action.AdoptVersionThenRetry adopt -> {
                ServerDescription now = server;
                // the same version again is a plain retry: the correction budget allows it once per request
                if (adopt.version() != now.protocolVersion()) {
                    server = new ServerDescription(now.era(), adopt.version(), now.serverInfo(), now.capabilities(),
                            now.instructions());
                }
            }
            case Recovery.Action.SwitchEra switchEra -> {
                if (!eraSwitch.switchFrom(seenTransport, seenServer, switchEra.signal(), deadline)) {
                    throw switchEra.signal();
                }
            }
            case Recovery.Action.RenewCredentialsThenRetry renew -> authorization().renew(renew.refused());
            case Recovery.Action.RetryWithDpopNonce nonce -> {
                if (!authorization().adoptNonce(nonce.refused())) {
                    throw nonce.refused();
                }
            }
        }
    }

    private HttpAuthorization authorization() {
        return endpoint instanceof UpstreamEndpoint.Http http ? http.authorization() : HttpAuthorization.NONE;
    }

    private SessionRecovery.Outcome recoverSession(long seenGeneration, String deadSessionId, Deadline deadline) {
        Transport t = transport;
        SessionRecovery.Outcome outcome = sessions.recover(seenGeneration, deadline, () -> {
            t.expireSession(deadSessionId);
            detection.initialize(server.protocolVersion(), deadline.remaining());
        });
        if (outcome == SessionRecovery.Outcome.REINITIALIZED) {
            log.info("{}: upstream forgot session {}; re-initialized, session generation {}", name,
                    SessionExpiredException.redact(deadSessionId), sessions.generation());
            reinitialized();
        }
        return outcome;
    }

    /** A new session replaced a dead one: what hung on the old one is asked for again. */
    private void reinitialized() {
        counters.reinitializations.incrementAndGet();
        emit(new ClientEvent.Reinitialized(sessions.generation()));
        subscriptions.resubscribeLegacy();
        for (CatalogueKind kind : CatalogueKind.values()) {
            listChanged(kind);
        }
    }

    /**
     * The probe of the lost-sessions condition: a fresh initialize, then a {@code ping} in that
     * session. True when the ping was answered; the session stays and the condition ends.
     */
    private boolean probeSessions() {
        Transport t = transport;
        Deadline deadline = Deadline.after(Methods.INITIALIZE, requestTimeout);
        long generation = sessions.reinitializeNow(deadline, () -> {
            t.sessionId().ifPresent(t::expireSession);
            detection.initialize(server.protocolVersion(), deadline.remaining());
        });
        try {
            exchange.run(Methods.PING, null, RequestOptions.defaults().withTimeout(deadline.remaining()), new Attempt((ProtocolVersion) null));
        } catch (McpErrorException answered) {
            // any JSON-RPC answer means the session was accepted
        } catch (SessionExpiredException stillLost) {
            return false;
        }
        log.info("{}: a fresh session answered again; session generation {}", name, generation);
        reinitialized();
        return true;
    }

    /** Sends a notification; an upstream that takes it and never acknowledges it costs at most the request timeout. */
    /**
     * Whether request {@code method} may run once more on this upstream when its first answer was
     * lost with whoever waited for it (a gateway replica that died mid-call): the rule of a lost
     * modern stream (reads, idempotent methods, the tool's annotations, the operator's
     * {@code reissue}). The tool's descriptor may be refreshed to find out.
     */
    public boolean harmlessToRepeat(String method, ObjectNode params) {
        return resends.harmlessToRepeat(method, params, catalogues::lookUpTool);
    }

    public void notify(String method, ObjectNode params) {
        Outbound notification = new Outbound(new Notification(method, params), Map.of(), requestTimeout);
        resends.message(method, () -> transport.send(notification));
    }

    /** The upstream's tools (pagination drained), from cache while it is valid. */
    public List<ToolDescriptor> listTools() {
        return catalogues.tools();
    }

    /** Whether the cached list of {@code kind} outlived the {@code ttlMs} the upstream gave it. */
    public boolean listExpired(CatalogueKind kind) {
        return catalogues.expired(kind);
    }

    /**
     * Drops the cached list of {@code kind}, so the next list asks the upstream: its answers say
     * the list is out of date (a tool it listed is unknown to it now).
     */
    public void forgetList(CatalogueKind kind) {
        catalogues.invalidate(kind);
    }

    public List<ObjectNode> listResources() {
        return catalogues.list(Methods.RESOURCES_LIST, "resources");
    }

    public List<ObjectNode> listResourceTemplates() {
        return catalogues.list(Methods.RESOURCES_TEMPLATES_LIST, "resourceTemplates");
    }

    public List<ObjectNode> listPrompts() {
        return catalogues.list(Methods.PROMPTS_LIST, "prompts");
    }

    public JsonNode callTool(String tool, ObjectNode arguments, RequestOptions options) {
        ObjectNode params = Json.object();
        params.put("name", tool);
        params.set("arguments", arguments == null ? Json.object() : arguments);
        return request(Methods.TOOLS_CALL, params, options);
    }

    private void listChanged(CatalogueKind kind) {
        catalogues.invalidate(kind);
        emit(new ClientEvent.ListChanged(kind));
    }

    private void emit(ClientEvent event) {
        try {
            events.accept(event);
        } catch (RuntimeException e) {
            log.warn("{}: event listener failed on {}", name, event, e);
        }
    }

    private void requireConnected() {
        if (closed) {
            throw new UpstreamUnavailableException(name + ": client is closed");
        }
        McpException dead = closedBy;
        if (dead != null) {
            throw new UpstreamUnavailableException(name + ": " + dead.getMessage(), dead);
        }
        if (server == null) {
            throw new IllegalStateException(name + ": connect() first");
        }
    }

    private Era era() {
        ServerDescription s = server;
        return s == null ? null : s.era();
    }

    /**
     * Why the client refuses requests at once, while a fault of the upstream repeats (see
     * {@link Builder#conditionBackoff}); empty while it behaves.
     */
    public Optional<String> degradedReason() {
        return condition.current().map(FaultCondition.State::reason);
    }

    /** What the upstream is and which era and version the client speaks with it. */
    public ServerDescription server() {
        return server;
    }

    public String name() {
        return name;
    }

    public ClientCounters counters() {
        return counters;
    }

    /** True while the transport lives; false after it closed (a stdio child that exited). */
    public boolean isOpen() {
        return !closed && closedBy == null;
    }

    public TransportKind transportKind() {
        Transport t = transport;
        return t == null ? null : t.kind();
    }

    public Optional<Long> pid() {
        Transport t = transport;
        return t == null ? Optional.empty() : t.pid();
    }

    /** Requests sent and not yet answered, failed or timed out: zero whenever the client is idle. */
    public int pendingCount() {
        return pending.size();
    }

    @Override
    public void close() {
        closed = true;
        condition.close();
        subscriptions.stop();
        Transport t = transport;
        if (t != null) {
            t.close();
        }
        pending.failAll(new UpstreamUnavailableException(name + ": client closed"));
    }

    /** What era detection may touch: the client's exchange and its connection state. */
    private final class DetectionLink implements EraDetection.Link {
        @Override
        public JsonNode exchange(String method, ObjectNode params, RequestOptions options, ProtocolVersion metaVersion) {
            return exchange.run(method, params, options, new Attempt(metaVersion));
        }

        @Override
        public void attach(Transport candidate) {
            McpClient.this.attach(candidate);
        }

        @Override
        public void detach(Transport rejected) {
            McpClient.this.detach(rejected);
        }

        @Override
        public Transport transport() {
            return transport;
        }

        @Override
        public boolean transportClosed() {
            return closedBy != null;
        }

        @Override
        public ServerDescription server() {
            return server;
        }

        @Override
        public void describe(ServerDescription description) {
            server = description;
        }

        @Override
        public void notify(String method, ObjectNode params) {
            McpClient.this.notify(method, params);
        }
    }

    /** What inbound dispatch may touch: the connection state it reads and the reactions it triggers. */
    private final class InboundLink implements Inbound.Link {
        @Override
        public Transport transport() {
            return transport;
        }

        @Override
        public Era era() {
            return McpClient.this.era();
        }

        @Override
        public boolean listChangeIsLive(ObjectNode params) {
            return subscriptions.listChangeIsLive(params);
        }

        @Override
        public ResourceWatch resourceWatch() {
            return subscriptions.currentWatch();
        }

        @Override
        public void recoverSession(long seenGeneration, String deadSessionId) {
            if (McpClient.this.recoverSession(seenGeneration, deadSessionId, Deadline.after(Methods.INITIALIZE, requestTimeout))
                    == SessionRecovery.Outcome.LOST_RIGHT_AFTER_INITIALIZE) {
                recovery.sessionsLostRightAfterInitialize("the listen stream", null);
            }
        }

        @Override
        public void closed(McpException cause) {
            closedBy = cause;
        }

        @Override
        public void listChanged(CatalogueKind kind) {
            McpClient.this.listChanged(kind);
        }

        @Override
        public void emit(ClientEvent event) {
            McpClient.this.emit(event);
        }
    }

    /** What an era switch may touch: the connection it replaces and what hangs on it. */
    private final class SwitchLink implements EraSwitch.Link {
        @Override
        public Transport transport() {
            return transport;
        }

        @Override
        public ServerDescription server() {
            return server;
        }

        @Override
        public void restore(Transport previous, ServerDescription description) {
            transport = previous;
            server = description;
        }

        @Override
        public void replaced() {
            subscriptions.stopListening();
            catalogues.forgetTools();
            for (CatalogueKind kind : CatalogueKind.values()) {
                listChanged(kind);
            }
            subscriptions.startListening();
        }

        @Override
        public void fail(RequestId id, McpException error) {
            pending.fail(id, error);
        }
    }

    public static final class Builder {
        private final UpstreamEndpoint endpoint;
        private final Transport transport;
        private String name = "upstream";
        private String clientName = "mcpx";
        private String clientVersion = McpxVersion.current();
        private ObjectNode capabilities = Json.object();
        private Duration requestTimeout = Duration.ofSeconds(60);
        private Duration probeTimeout = Duration.ofSeconds(3);
        private ServerRequestHandler serverRequests = ServerRequestHandler.pingOnly();
        private Consumer<ClientEvent> events = event -> { };
        private Map<String, Reissue> reissue = Map.of();
        private boolean listenForChanges;
        private ProtocolVersion protocolVersion;
        private int maxMessageChars = JsonRpcCodec.DEFAULT_MAX_CHARS;
        private EraCache eraCache = EraCache.shared();
        private Integer maxSseEventBytes;
        private Set<String> handledResultTypes = Set.of();
        private Duration conditionBackoff = Duration.ofSeconds(1);
        private Duration maxConditionBackoff = Duration.ofSeconds(30);

        private Builder(UpstreamEndpoint endpoint, Transport transport) {
            this.endpoint = endpoint;
            this.transport = transport;
        }

        /** The upstream's name, for logs and errors. */
        public Builder name(String value) {
            this.name = value;
            return this;
        }

        public Builder clientInfo(String clientName, String version) {
            this.clientName = clientName;
            this.clientVersion = version;
            return this;
        }

        public Builder capabilities(ObjectNode value) {
            this.capabilities = value.deepCopy();
            return this;
        }

        public Builder requestTimeout(Duration value) {
            this.requestTimeout = value;
            return this;
        }

        /** How long the {@code server/discover} probe waits before taking the upstream for legacy. */
        public Builder probeTimeout(Duration value) {
            this.probeTimeout = value;
            return this;
        }

        public Builder serverRequests(ServerRequestHandler handler) {
            this.serverRequests = handler;
            return this;
        }

        public Builder events(Consumer<ClientEvent> listener) {
            this.events = listener;
            return this;
        }

        /** The operator's per-tool re-issue overrides (config {@code reissue}). */
        public Builder reissue(Map<String, Reissue> overrides) {
            this.reissue = Map.copyOf(overrides);
            return this;
        }

        /**
         * Whether a modern HTTP client keeps a {@code subscriptions/listen} open for the list
         * changes the upstream advertises (off by default: a one-shot client such as
         * {@code mcpx call} has no use for it; the gateway's pool turns it on).
         */
        public Builder listenForChanges(boolean value) {
            this.listenForChanges = value;
            return this;
        }

        /** Speak exactly this version instead of negotiating the newest. */
        public Builder protocolVersion(ProtocolVersion version) {
            this.protocolVersion = version;
            return this;
        }

        /**
         * {@code resultType} values the embedding code handles itself, recognised even when a
         * request did not declare the extension that defines them (the gateway turns an
         * unsolicited task into its outcome); any other unknown value is an invalid result.
         */
        public Builder handledResultTypes(Set<String> values) {
            this.handledResultTypes = Set.copyOf(values);
            return this;
        }

        public Builder maxMessageChars(int value) {
            this.maxMessageChars = value;
            return this;
        }

        /** Where HTTP era answers are shared with other clients (default: {@link EraCache#shared()}). */
        public Builder eraCache(EraCache cache) {
            this.eraCache = java.util.Objects.requireNonNull(cache);
            return this;
        }

        /** The largest SSE event read from an HTTP upstream; by default the message limit. */
        public Builder maxSseEventBytes(int value) {
            this.maxSseEventBytes = value;
            return this;
        }

        /**
         * The backoff of a fault that repeats (sessions lost right after initialize, every stream
         * breaking, an era that flips): requests are refused at once and the upstream is probed
         * after {@code initial}, doubling up to {@code max} (default 1 s and 30 s).
         */
        public Builder conditionBackoff(Duration initial, Duration max) {
            this.conditionBackoff = initial;
            this.maxConditionBackoff = max;
            return this;
        }

        public McpClient build() {
            return new McpClient(this);
        }
    }
}

package dev.mcpx.client;

import dev.mcpx.client.TransportOpener.Wire;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.UpstreamEndpoint;
import dev.mcpx.transport.http.LegacyHttpTransports;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Finds out which era (and, over HTTP, which wire) an upstream speaks, and runs the legacy
 * handshake. HTTP: a modern request first; a refusal without a recognised modern error means
 * legacy ({@code initialize}), and a Streamable HTTP refusal that looks like an old server means
 * HTTP+SSE. stdio and a transport the caller made: the {@code server/discover} probe, then
 * {@code initialize}. An HTTP answer goes into the {@link EraCache}, and a later connect to the
 * same endpoint trusts it, probing again only when it fails.
 */
final class EraDetection {

    private static final Logger log = LoggerFactory.getLogger(EraDetection.class);

    /** What detection needs from the client it connects: one exchange, and its connection state. */
    interface Link {
        JsonNode exchange(String method, ObjectNode params, RequestOptions options, ProtocolVersion metaVersion);

        /** Makes {@code candidate} the client's transport and starts it. */
        void attach(Transport candidate);

        /** Closes a transport detection gave up on; its closing is not the client's death. */
        void detach(Transport rejected);

        Transport transport();

        /** Whether the current transport died (a stdio child that exited) since it was attached. */
        boolean transportClosed();

        ServerDescription server();

        void describe(ServerDescription server);

        void notify(String method, ObjectNode params);
    }

    private final String name;
    private final UpstreamEndpoint endpoint;
    private final TransportOpener opener;
    private final EraCache cache;
    private final ProtocolVersion pinnedVersion;
    private final Duration requestTimeout;
    private final Duration probeTimeout;
    private final ObjectNode clientInfo;
    private final ObjectNode capabilities;
    private final Resends resends;
    private final Link link;
    /** The HTTP wire in use (null on stdio or a given transport), and how long its discovery may be shared. */
    private volatile Wire wire;
    private volatile Duration shareableFor;
    /** The deadline of the request whose failure is being re-detected: no probe outlives it. */
    private volatile Deadline bound;

    EraDetection(String name, UpstreamEndpoint endpoint, TransportOpener opener, EraCache cache,
                 ProtocolVersion pinnedVersion, Duration requestTimeout, Duration probeTimeout,
                 ObjectNode clientInfo, ObjectNode capabilities, Resends resends, Link link) {
        this.name = name;
        this.endpoint = endpoint;
        this.opener = opener;
        this.cache = cache;
        this.pinnedVersion = pinnedVersion;
        this.requestTimeout = requestTimeout;
        this.probeTimeout = probeTimeout;
        this.clientInfo = clientInfo;
        this.capabilities = capabilities;
        this.resends = resends;
        this.link = link;
    }

    /** Opens the transport and agrees on an era and version; {@code given} is a transport the caller made, or null. */
    void connect(Transport given) {
        if (given != null) {
            connectOn(given);
        } else if (endpoint instanceof UpstreamEndpoint.Http http) {
            connectHttp(http);
        } else {
            connectStdio();
        }
    }

    /**
     * The probe first, as on any transport, unless the era is pinned. Some legacy servers exit on
     * any first request but {@code initialize}: when the child dies on the probe, a new one is
     * started and spoken to in legacy, without a probe.
     */
    private void connectStdio() {
        Transport child = opener.open(endpoint, Wire.STDIO);
        if (pinnedVersion != null) {
            connectOn(child);
            return;
        }
        link.attach(child);
        boolean modern;
        try {
            modern = discover(probeTimeout);
        } catch (UpstreamUnavailableException e) {
            link.detach(child);
            if (!link.transportClosed()) {
                throw e;
            }
            log.info("{}: the child exited during the server/discover probe ({}); starting it again and speaking legacy",
                    name, e.getMessage());
            connectLegacyOn(opener.open(endpoint, Wire.STDIO));
            return;
        } catch (RuntimeException e) {
            link.detach(child);
            throw e;
        }
        if (!modern) {
            try {
                initializeUnlessSlowModern();
            } catch (RuntimeException e) {
                link.detach(child);
                throw e;
            }
        }
    }

    /**
     * Whether this client may change era under way: only an HTTP endpoint that was detected (a
     * pinned version or an explicit HTTP+SSE endpoint means the operator chose; stdio re-probes
     * on every start of the child anyway).
     */
    boolean mayRedetect() {
        return endpoint instanceof UpstreamEndpoint.Http http && detects(http);
    }

    /**
     * Finds the era again after the current one failed: as another client of the cache just
     * found it, when its fresh answer names another wire than this client's; else by probing
     * from scratch, replacing the cached answer.
     */
    void redetect(Deadline deadline) {
        bound = deadline;
        try {
            redetectHttp();
        } finally {
            bound = null;
        }
    }

    private void redetectHttp() {
        UpstreamEndpoint.Http http = (UpstreamEndpoint.Http) endpoint;
        Wire failed = wire;
        cache.probingAlone(http, () -> {
            EraCache.Entry fresh = cache.lookup(http);
            if (fresh != null && fresh.wire() != failed) {
                try {
                    connectAs(http, fresh);
                    return null;
                } catch (RequestTimeoutException | RequestCancelledException e) {
                    throw e;
                } catch (McpException e) {
                    log.debug("{}: another client's answer ({}) failed too: {}", name, fresh.wire(), e.getMessage());
                }
            }
            cache.forget(http);
            detectHttp(http);
            return null;
        });
    }

    Wire wire() {
        return wire;
    }

    /** Puts back the wire of a connection a failed re-detection leaves in place. */
    void restoreWire(Wire previous) {
        wire = previous;
    }

    private boolean detects(UpstreamEndpoint.Http http) {
        return http.kind() != UpstreamEndpoint.HttpKind.SSE && pinnedVersion == null;
    }

    private void connectHttp(UpstreamEndpoint.Http http) {
        if (!detects(http)) {
            detectHttp(http);
            return;
        }
        EraCache.Entry cached = cache.lookup(http);
        if (cached == null) {
            boolean probed = cache.probingAlone(http, () -> {
                if (cache.lookup(http) != null) {
                    return false;
                }
                detectHttp(http);
                return true;
            });
            if (probed) {
                return;
            }
            cached = cache.lookup(http);
        }
        if (cached != null) {
            try {
                connectAs(http, cached);
                return;
            } catch (RequestTimeoutException | RequestCancelledException e) {
                throw e;
            } catch (McpException e) {
                log.info("{}: the cached era of this endpoint ({}) failed at connect ({}); probing again", name,
                        cached.wire().name().toLowerCase(java.util.Locale.ROOT), e.getMessage());
            }
        }
        detectHttp(http);
    }

    /** Connects the way the cache says, sending no probe when it holds the discovery too. */
    private void connectAs(UpstreamEndpoint.Http http, EraCache.Entry cached) {
        if (cached.wire() != Wire.MODERN_HTTP) {
            connectLegacyOn(opener.open(http, cached.wire()));
            wire = cached.wire();
            return;
        }
        Transport modern = opener.open(http, Wire.MODERN_HTTP);
        link.attach(modern);
        if (cached.discovery() != null) {
            link.describe(cached.discovery());
            wire = Wire.MODERN_HTTP;
            return;
        }
        boolean modernStill;
        try {
            modernStill = discover(requestTimeout);
        } catch (RuntimeException e) {
            link.detach(modern);
            throw e;
        }
        if (!modernStill) {
            link.detach(modern);
            throw new UpstreamUnavailableException(name + ": upstream no longer answers server/discover like a modern server");
        }
        wire = Wire.MODERN_HTTP;
    }

    private void detectHttp(UpstreamEndpoint.Http http) {
        shareableFor = null;
        Wire found = probeHttp(http);
        wire = found;
        if (detects(http)) {
            cache.remember(http, found, link.server(), shareableFor);
        }
    }

    private Wire probeHttp(UpstreamEndpoint.Http http) {
        if (http.kind() == UpstreamEndpoint.HttpKind.SSE) {
            connectLegacyOn(opener.open(http, Wire.HTTP_SSE));
            return Wire.HTTP_SSE;
        }
        boolean tryModern = pinnedVersion == null || pinnedVersion.era() == Era.MODERN;
        if (tryModern) {
            Transport modern = opener.open(http, Wire.MODERN_HTTP);
            link.attach(modern);
            try {
                // over HTTP a legacy server answers the probe at once with an HTTP error; silence is
                // a slow server, not a legacy one, so the probe gets the full request timeout
                if (discover(requestTimeout)) {
                    return Wire.MODERN_HTTP;
                }
            } catch (RuntimeException e) {
                link.detach(modern);
                throw e;
            }
            link.detach(modern);
            if (pinnedVersion != null) {
                throw new UpstreamUnavailableException(name + ": upstream does not speak " + pinnedVersion);
            }
        }
        try {
            connectLegacyOn(opener.open(http, Wire.LEGACY_HTTP));
            return Wire.LEGACY_HTTP;
        } catch (HttpStatusException e) {
            if (http.kind() == UpstreamEndpoint.HttpKind.STREAMABLE || !LegacyHttpTransports.suggestsHttpSse(e)) {
                throw e;
            }
            log.info("{}: Streamable HTTP refused with {}, falling back to HTTP+SSE", name, e.status());
            connectLegacyOn(opener.open(http, Wire.HTTP_SSE));
            return Wire.HTTP_SSE;
        }
    }

    private void connectOn(Transport candidate) {
        link.attach(candidate);
        try {
            if (pinnedVersion != null && pinnedVersion.era() == Era.LEGACY) {
                initialize(pinnedVersion);
            } else if (!discover(pinnedVersion != null ? requestTimeout : probeTimeout) && pinnedVersion == null) {
                initializeUnlessSlowModern();
            } else if (link.server() == null) {
                throw new UpstreamUnavailableException(name + ": upstream does not speak " + pinnedVersion);
            }
        } catch (RuntimeException e) {
            candidate.close();
            throw e;
        }
    }

    private void connectLegacyOn(Transport candidate) {
        link.attach(candidate);
        try {
            initialize(pinnedVersion != null ? pinnedVersion : ProtocolVersion.LATEST_LEGACY);
        } catch (RuntimeException e) {
            candidate.close();
            throw e;
        }
    }

    /**
     * On stdio a probe that timed out may mean a modern server still starting, not a legacy one:
     * if the {@code initialize} that follows is refused, probe once more with the full timeout.
     */
    private void initializeUnlessSlowModern() {
        try {
            initialize(ProtocolVersion.LATEST_LEGACY);
        } catch (McpErrorException refused) {
            if (!discover(requestTimeout)) {
                throw refused;
            }
            log.info("{}: upstream refused initialize but answered server/discover: modern, slow to start", name);
        }
    }

    /**
     * The modern probe. True when the upstream is modern and the client's server description is
     * set; false when it answered like a legacy server (any error that is not a recognised modern
     * one, or no answer in time).
     */
    private boolean discover(Duration timeout) {
        ProtocolVersion offer = pinnedVersion != null ? pinnedVersion : ProtocolVersion.LATEST_MODERN;
        RequestOptions options = RequestOptions.defaults().withTimeout(within(timeout));
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                JsonNode result = link.exchange(Methods.DISCOVER, null, options, offer);
                ProtocolVersion chosen = chooseModern(result.path("supportedVersions"));
                if (chosen == null) {
                    return false;
                }
                link.describe(new ServerDescription(Era.MODERN, chosen,
                        Json.objectAt(result.path(MetaKeys.META), MetaKeys.SERVER_INFO),
                        Json.objectAt(result, "capabilities"), Json.text(result, "instructions")));
                shareableFor = shareableFor(result);
                return true;
            } catch (McpErrorException e) {
                if (e.code() != ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION) {
                    return false;
                }
                JsonNode supported = e.error().data() == null ? null : e.error().data().path("supported");
                ProtocolVersion chosen = chooseModern(supported);
                // a server that rejects a version it lists as supported gets one retry with that version
                if (chosen != null && (chosen != offer || attempt == 0)) {
                    offer = chosen;
                    continue;
                }
                if (chosen != null) {
                    throw new UpstreamUnavailableException(name + ": upstream refused protocol version " + offer
                            + " twice while listing it as supported: " + supported);
                }
                if (pinnedVersion == null && listsLegacy(supported)) {
                    return false;
                }
                // a recognised modern error proves a modern server: falling back to initialize would only confuse
                throw new UpstreamUnavailableException(name + ": upstream supports protocol versions " + supported
                        + ", none of which mcpx speaks (" + ProtocolVersion.ofEra(Era.MODERN) + " and "
                        + ProtocolVersion.ofEra(Era.LEGACY) + ")");
            } catch (RequestTimeoutException | HttpStatusException e) {
                return false;
            } catch (StreamLostException e) {
                if (attempt == 1) {
                    throw e;
                }
                resends.reissuing(Methods.DISCOVER, e.requestId(), e);
            }
        }
        return false;
    }

    /** A discovery other clients may reuse: public, and for its ttl (caching spec: absent ttl is stale at once). */
    private static Duration shareableFor(JsonNode result) {
        if (!"public".equals(Json.text(result, "cacheScope")) || !result.path("ttlMs").canConvertToLong()) {
            return null;
        }
        long ttlMs = result.path("ttlMs").asLong();
        return ttlMs > 0 ? Duration.ofMillis(ttlMs) : null;
    }

    /** The legacy handshake; the same code serves the first connect and every re-initialize. */
    void initialize(ProtocolVersion offer) {
        initialize(offer, within(requestTimeout));
    }

    /** {@code wanted}, cut to what the request being re-detected for has left. */
    private Duration within(Duration wanted) {
        Deadline d = bound;
        return d == null || d.remaining().compareTo(wanted) >= 0 ? wanted : d.remaining();
    }

    /** The legacy handshake within {@code timeout} (a re-initialize spends its request's deadline). */
    void initialize(ProtocolVersion offer, Duration timeout) {
        long until = System.nanoTime() + timeout.toNanos();
        ObjectNode params = Json.object();
        params.put("protocolVersion", offer.wire());
        params.set("capabilities", capabilities.deepCopy());
        params.set("clientInfo", clientInfo.deepCopy());
        JsonNode result = resends.handshake(Methods.INITIALIZE,
                () -> link.exchange(Methods.INITIALIZE, params, RequestOptions.defaults().withTimeout(timeout), null));
        String chosen = Json.text(result, "protocolVersion");
        ProtocolVersion version = chosen == null ? null : ProtocolVersion.fromWire(chosen)
                .filter(v -> v.era() == Era.LEGACY).orElse(null);
        if (version == null) {
            throw new UpstreamUnavailableException(name + ": upstream chose protocol version " + chosen
                    + ", which mcpx does not speak (it speaks " + ProtocolVersion.ofEra(Era.LEGACY) + " and "
                    + ProtocolVersion.ofEra(Era.MODERN) + ")");
        }
        link.describe(new ServerDescription(Era.LEGACY, version, Json.objectAt(result, "serverInfo"),
                Json.objectAt(result, "capabilities"), Json.text(result, "instructions")));
        link.transport().handshakeCompleted(version);
        link.notify(Methods.INITIALIZED, null);
        link.transport().sessionReady(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
    }

    private static boolean listsLegacy(JsonNode supported) {
        if (supported == null || !supported.isArray()) {
            return false;
        }
        for (JsonNode v : supported) {
            if (v.isString() && ProtocolVersion.fromWire(v.asString()).filter(p -> p.era() == Era.LEGACY).isPresent()) {
                return true;
            }
        }
        return false;
    }

    /** The newest modern version in {@code supported}, or null. */
    static ProtocolVersion chooseModern(JsonNode supported) {
        if (supported == null || !supported.isArray()) {
            return null;
        }
        ProtocolVersion best = null;
        for (JsonNode v : supported) {
            Optional<ProtocolVersion> known = v.isString() ? ProtocolVersion.fromWire(v.asString()) : Optional.empty();
            if (known.isPresent() && known.get().era() == Era.MODERN && (best == null || known.get().compareTo(best) > 0)) {
                best = known.get();
            }
        }
        return best;
    }
}

package dev.mcpx.client;

import dev.mcpx.client.TransportOpener.Wire;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.http.LegacyHttpTransports;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a client to the other era when its HTTP upstream was redeployed in it: the answer to a
 * request says "wrong era" (a modern request refused for want of a session, a legacy one for
 * want of the modern {@code _meta}), so the client probes the endpoint again, once, and carries
 * on over whatever it finds (spec 2026-07-28, versioning: re-probe if the cached assumption
 * later fails).
 *
 * <p>Such a refusal means the request did not run, so after a switch it is sent once more.
 * Requests still in flight on the replaced transport may have run: they fail with
 * {@link StreamLostException}, and the recovery phases decide about them as for any lost stream
 * (a destructive tool is not repeated). Whether to switch is {@link Recovery}'s decision: once
 * per request, and an era that flips back right after a switch is a condition, not a loop.
 */
final class EraSwitch {

    private static final Logger log = LoggerFactory.getLogger(EraSwitch.class);

    /** What the switch needs from its client: the connection state it replaces. */
    interface Link {
        Transport transport();

        ServerDescription server();

        /** Puts back the connection a failed re-probe leaves in place (no restart of the transport). */
        void restore(Transport transport, ServerDescription server);

        /** The connection was replaced: restart what depended on the old one (listening, cached lists). */
        void replaced();

        void fail(RequestId id, McpException error);
    }

    /** The cause of a request that never left because the transport was replaced while it waited to send. */
    static final class Replaced extends Exception {
        private static final long serialVersionUID = 1L;

        Replaced() {
            super("the connection was replaced before the request was sent", null, false, false);
        }
    }

    /** The cause of a request in flight on a transport the switch closed: no stream of it can be resumed. */
    static final class LeftBehind extends Exception {
        private static final long serialVersionUID = 1L;

        LeftBehind() {
            super("the upstream changed era while the request was in flight", null, false, false);
        }
    }

    private final String name;
    private final EraDetection detection;
    private final SessionRecovery sessions;
    private final ClientCounters counters;
    private final Consumer<ClientEvent> events;
    private final Link link;
    private final Map<RequestId, Transport> inFlight = new ConcurrentHashMap<>();
    private final AtomicLong reprobes = new AtomicLong();

    EraSwitch(String name, EraDetection detection, SessionRecovery sessions, ClientCounters counters,
              Consumer<ClientEvent> events, Link link) {
        this.name = name;
        this.detection = detection;
        this.sessions = sessions;
        this.counters = counters;
        this.events = events;
        this.link = link;
    }

    /** The request {@code id} left on {@code transport}; a switch away from it fails the request. */
    void sent(RequestId id, Transport transport) {
        inFlight.put(id, transport);
    }

    void finished(RequestId id) {
        inFlight.remove(id);
    }

    /** Thrown by a send that found the transport replaced while it waited: it never left. */
    static UpstreamUnavailableException replacedBeforeSending(String name) {
        return new UpstreamUnavailableException(name + ": the connection was replaced before the request was sent",
                new Replaced());
    }

    /**
     * Re-probes unless another request already replaced {@code seen}. True when the era is now
     * the other one, so the request is worth sending again.
     */
    boolean switchFrom(Transport seen, ServerDescription seenServer, McpException signal, Deadline deadline) {
        Outcome[] outcome = {Outcome.KEPT};
        boolean probed = sessions.replace(deadline, () -> link.transport() == seen, () -> {
            outcome[0] = reprobe(seen, seenServer, signal, deadline);
            return outcome[0] != Outcome.KEPT;
        });
        return probed ? outcome[0] == Outcome.SWITCHED : link.server().era() != seenServer.era();
    }

    /** What a re-probe did with the connection. */
    private enum Outcome {
        /** Found what the client already spoke: the connection stays. */
        KEPT,
        /** Same era on another wire (Streamable HTTP now refused, HTTP+SSE instead, or back). */
        RECONNECTED,
        /** The other era. */
        SWITCHED
    }

    /** How many re-probes finished, whatever they found (one under way is not counted: its waiters join it). */
    long reprobes() {
        return reprobes.get();
    }

    private Outcome reprobe(Transport old, ServerDescription before, McpException signal, Deadline deadline) {
        try {
            return reprobeOnce(old, before, signal, deadline);
        } finally {
            reprobes.incrementAndGet();
        }
    }

    private Outcome reprobeOnce(Transport old, ServerDescription before, McpException signal, Deadline deadline) {
        Wire oldWire = detection.wire();
        try {
            detection.redetect(deadline);
        } catch (RuntimeException failure) {
            link.restore(old, before);
            detection.restoreWire(oldWire);
            failure.addSuppressed(signal);
            log.info("{}: answered like a {} server ({}), and probing its era again failed: {}", name,
                    label(other(before.era())), signal.getMessage(), failure.getMessage());
            throw failure;
        }
        Transport fresh = link.transport();
        if (detection.wire() == oldWire) {
            // a false alarm, or a server that answered oddly once: keep the connection requests are in flight on
            link.restore(old, before);
            fresh.close();
            log.info("{}: answered like a {} server ({}), but probing again found it still {}; carrying on", name,
                    label(other(before.era())), signal.getMessage(), label(before.era()));
            return Outcome.KEPT;
        }
        inFlight.forEach((id, transport) -> {
            if (transport == old) {
                link.fail(id, new StreamLostException(id, "the upstream changed era while the request was in flight",
                        new LeftBehind()));
            }
        });
        if (link.server().era() != before.era()) {
            // the old session died with the redeploy: no DELETE for it to a server of the other era
            old.sessionId().ifPresent(old::expireSession);
        }
        old.close();
        link.replaced();
        ServerDescription now = link.server();
        if (now.era() == before.era()) {
            log.info("{}: answered like a {} server ({}); probing again found it still {}, over {} now", name,
                    label(other(before.era())), signal.getMessage(), label(now.era()), transportLabel(detection.wire()));
            return Outcome.RECONNECTED;
        }
        counters.eraChanges.incrementAndGet();
        log.info("{}: upstream now speaks {} {} (was {} {}); switched to {} after one re-probe", name,
                label(now.era()), now.protocolVersion(), label(before.era()), before.protocolVersion(),
                transportLabel(detection.wire()));
        emit(new ClientEvent.EraChanged(before.era(), now.era(), now.protocolVersion()));
        return Outcome.SWITCHED;
    }

    /**
     * Responses and request failures count whichever transport they come from: ids are unique
     * per client, and a request in flight on a transport being replaced still gets its answer.
     * Everything else from a transport that is not the client's current one is dropped.
     */
    static boolean answersARequest(TransportEvent event) {
        return event instanceof TransportEvent.RequestFailed
                || event instanceof TransportEvent.Received received
                && (received.message() instanceof JsonRpcMessage.Result
                || received.message() instanceof JsonRpcMessage.ErrorResponse error && error.id() != null);
    }

    /**
     * Whether a request's failure says the upstream speaks the other era now. A modern request
     * refused with a transport-level error (-32600, or the -32000..-32099 range the SDKs use)
     * that asks for a session or an initialize, or with a bare 400/404/405 (an HTTP+SSE
     * endpoint), met a legacy server; a legacy request refused with a modern-only error code or
     * for want of the modern {@code _meta} met a modern one. A false alarm costs one re-probe
     * and leaves the connection as it was.
     */
    static boolean suggestsOtherEra(Era era, McpException failure) {
        if (era == Era.MODERN) {
            if (failure instanceof McpErrorException error) {
                String message = lower(error.error().message());
                return refusesTransportLevel(error.code()) && (message.contains("session") || message.contains("initializ"));
            }
            return LegacyHttpTransports.suggestsHttpSse(failure);
        }
        if (failure instanceof McpErrorException error) {
            String message = lower(error.error().message());
            return error.code() == ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION || error.code() == ErrorCodes.HEADER_MISMATCH
                    || message.contains("_meta") || message.contains("io.modelcontextprotocol/");
        }
        return false;
    }

    /** The codes SDKs refuse a request with before it reaches a method: not a tool's or a modern validation error. */
    private static boolean refusesTransportLevel(int code) {
        boolean serverError = code <= -32000 && code >= -32099 && code != ErrorCodes.HEADER_MISMATCH
                && code != ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY && code != ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION;
        return serverError || code == ErrorCodes.INVALID_REQUEST;
    }

    private void emit(ClientEvent event) {
        try {
            events.accept(event);
        } catch (RuntimeException e) {
            log.warn("{}: event listener failed on {}", name, event, e);
        }
    }

    private static String lower(String text) {
        return text == null ? "" : text.toLowerCase(Locale.ROOT);
    }

    private static Era other(Era era) {
        return era == Era.MODERN ? Era.LEGACY : Era.MODERN;
    }

    private static String label(Era era) {
        return era.name().toLowerCase(Locale.ROOT);
    }

    private static String transportLabel(Wire wire) {
        return switch (wire) {
            case MODERN_HTTP -> "modern Streamable HTTP";
            case LEGACY_HTTP -> "legacy Streamable HTTP";
            case HTTP_SSE -> "HTTP+SSE";
            case STDIO -> "stdio";
        };
    }
}

package dev.mcpx.client;

import dev.mcpx.client.PendingRequests.Waiter;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.TransportKind;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the client does with everything its transport delivers: a response completes its
 * pending request, a notification updates a call or the client's state, a server request is
 * answered, and a lost session or a closed transport is acted on.
 */
final class Inbound {

    private static final Logger log = LoggerFactory.getLogger(Inbound.class);

    /** What inbound dispatch may touch of the client: its connection state and its reactions. */
    interface Link {
        Transport transport();

        Era era();

        /** Whether a modern list change with these params names the list-change listen now open. */
        boolean listChangeIsLive(ObjectNode params);

        /** The client's resource watch, or null while it has none. */
        ResourceWatch resourceWatch();

        void recoverSession(long seenGeneration, String deadSessionId);

        /** The transport closed for good with {@code cause}. */
        void closed(McpException cause);

        void listChanged(CatalogueKind kind);

        void emit(ClientEvent event);
    }

    private final String name;
    private final PendingRequests pending;
    private final SessionRecovery sessions;
    private final ServerRequestHandler serverRequests;
    private final Resends resends;
    private final Duration requestTimeout;
    private final Link link;

    Inbound(String name, PendingRequests pending, SessionRecovery sessions, ServerRequestHandler serverRequests,
            Resends resends, Duration requestTimeout, Link link) {
        this.name = name;
        this.pending = pending;
        this.sessions = sessions;
        this.serverRequests = serverRequests;
        this.resends = resends;
        this.requestTimeout = requestTimeout;
        this.link = link;
    }

    /**
     * Everything from the client's current transport counts. From another one (a transport a
     * re-probe has stood aside while it probes, or one an era switch replaced) only what belongs
     * to a request still pending there counts: its answer or failure, and its progress, log lines
     * and server requests (a false alarm keeps that request, and it must not lose them).
     */
    void onTransportEvent(Transport source, TransportEvent event) {
        boolean current = source == link.transport();
        if (!current && !EraSwitch.answersARequest(event) && !ofAPendingRequest(event)) {
            return;
        }
        switch (event) {
            case TransportEvent.Received received -> onMessage(source, current, received.message(), received.relatedTo());
            case TransportEvent.Undecodable bad ->
                    log.warn("{}: dropped a line that is not JSON-RPC ({}): {}", name, bad.error().getMessage(), bad.excerpt());
            case TransportEvent.RequestFailed failed -> pending.fail(failed.id(), failed.error());
            case TransportEvent.AnswerLost lost -> {
                log.warn("{}: {}", name, lost.error().getMessage());
                pending.failAll(lost.error());
            }
            case TransportEvent.SessionExpired expired -> {
                long generation = sessions.generation();
                Thread.ofVirtual().name("mcpx-reinit-" + name).start(() -> {
                    if (!expired.sessionId().equals(link.transport().sessionId().orElse(null))) {
                        // a request's recovery got to the dead session first (whatever came of it): one attempt per dead session
                        return;
                    }
                    try {
                        link.recoverSession(generation, expired.sessionId());
                    } catch (McpException e) {
                        log.warn("{}: re-initialize after the listen stream lost its session failed: {}", name, e.getMessage());
                    }
                });
            }
            case TransportEvent.Closed closedEvent -> {
                link.closed(closedEvent.cause());
                pending.failAll(closedEvent.cause());
                link.emit(new ClientEvent.Closed(closedEvent.cause()));
            }
        }
    }

    /** Whether {@code event} is a message of a pending request's: its progress, or a log line or server request on its stream. */
    private boolean ofAPendingRequest(TransportEvent event) {
        if (!(event instanceof TransportEvent.Received received)) {
            return false;
        }
        return switch (received.message()) {
            case Notification n when Methods.PROGRESS.equals(n.method()) && n.params() != null ->
                    pending.get(RequestId.fromJson(n.params().get(MetaKeys.PROGRESS_TOKEN))) != null;
            case Notification n when Methods.MESSAGE.equals(n.method()) -> pending.get(received.relatedTo()) != null;
            case Request r -> pending.get(received.relatedTo()) != null;
            default -> false;
        };
    }

    private void onMessage(Transport source, boolean current, JsonRpcMessage message, RequestId relatedTo) {
        switch (message) {
            case Result result -> completeOrDrop(result.id(), message);
            case ErrorResponse error -> {
                if (error.id() == null) {
                    log.warn("{}: upstream sent an error without an id: {}", name, error.error());
                } else {
                    completeOrDrop(error.id(), message);
                }
            }
            // 2026-07-28 servers ask through results (MRTR); a modern client writes no responses (stdio.md)
            case Request request when link.era() == Era.MODERN ->
                    log.warn("{}: dropped a {} request from a 2026-07-28 server, which a modern client does not answer",
                            name, request.method());
            case Request request -> {
                ServerRequestHandler handler = handlerFor(relatedTo);
                Thread.ofVirtual().name("mcpx-server-request").start(() -> answer(source, request, handler));
            }
            case Notification notification -> onNotification(current, notification, relatedTo);
        }
    }

    private void completeOrDrop(RequestId id, JsonRpcMessage reply) {
        if (!pending.complete(id, reply)) {
            log.debug("{}: dropped a response to {}, which is not pending (late, duplicate or unknown)", name, id);
        }
    }

    private void onNotification(boolean current, Notification notification, RequestId relatedTo) {
        ObjectNode params = notification.params() == null ? Json.object() : notification.params();
        switch (notification.method()) {
            case Methods.PROGRESS -> {
                Waiter waiter = pending.get(RequestId.fromJson(params.get(MetaKeys.PROGRESS_TOKEN)));
                if (waiter != null && waiter.progress() != null) {
                    waiter.progress().accept(params);
                }
            }
            case Methods.TOOLS_LIST_CHANGED -> listChanged(CatalogueKind.TOOLS, params);
            case Methods.RESOURCES_LIST_CHANGED -> listChanged(CatalogueKind.RESOURCES, params);
            case Methods.PROMPTS_LIST_CHANGED -> listChanged(CatalogueKind.PROMPTS, params);
            case Methods.RESOURCES_UPDATED -> resourceUpdated(params);
            case Methods.SUBSCRIPTIONS_ACKNOWLEDGED -> {
                ResourceWatch watch = link.resourceWatch();
                if (watch != null) {
                    watch.acknowledged(params);
                }
            }
            case Methods.MESSAGE -> {
                Optional<Consumer<ObjectNode>> call = callLogs(relatedTo);
                if (call.isPresent()) {
                    call.get().accept(params);
                } else if (current) {
                    link.emit(new ClientEvent.Log(params));
                }
            }
            default -> log.debug("{}: ignored notification {}", name, notification.method());
        }
    }

    /** A modern list change counts only from the listen now open: one naming an ended or foreign subscription is dropped. */
    private void listChanged(CatalogueKind kind, ObjectNode params) {
        if (link.era() == Era.MODERN && !link.listChangeIsLive(params)) {
            log.debug("{}: dropped a {} list change from a subscription not open now", name, kind);
            return;
        }
        link.listChanged(kind);
    }

    /** A modern update counts only from a stream still in use: a superseded stream's copy would be a duplicate. */
    private void resourceUpdated(ObjectNode params) {
        ResourceWatch watch = link.resourceWatch();
        if (link.era() == Era.MODERN && (watch == null || !watch.isLive(params))) {
            log.debug("{}: dropped a resource update from a subscription no longer in use", name);
            return;
        }
        link.emit(new ClientEvent.ResourceUpdated(params));
    }

    /**
     * Who hears a log line: the request whose stream carried it; on a wire without per-request
     * streams (stdio, HTTP+SSE), the only pending request that listens for logs. A line on a
     * Streamable HTTP listen stream belongs to no call.
     */
    private Optional<Consumer<ObjectNode>> callLogs(RequestId relatedTo) {
        Waiter related = pending.get(relatedTo);
        if (related != null) {
            return Optional.ofNullable(related.logs());
        }
        Transport t = link.transport();
        boolean perRequestStreams = t != null && t.kind() == TransportKind.STREAMABLE_HTTP;
        return perRequestStreams ? Optional.empty() : Optional.ofNullable(pending.soleLogs());
    }

    /**
     * Who answers a server request: the handler of the request whose stream carried it; with no
     * such relation (stdio, the listen stream), the only pending request's handler; else the
     * client-wide one.
     */
    private ServerRequestHandler handlerFor(RequestId relatedTo) {
        Waiter related = pending.get(relatedTo);
        if (related != null && related.serverRequests() != null) {
            return related.serverRequests();
        }
        ServerRequestHandler sole = related == null ? pending.soleHandler() : null;
        return sole != null ? sole : serverRequests;
    }

    /** Answers {@code request} on the transport it came from: the upstream that asked waits there. */
    private void answer(Transport source, Request request, ServerRequestHandler handler) {
        JsonRpcMessage reply;
        try {
            ObjectNode params = request.params() == null ? Json.object() : request.params();
            reply = new Result(request.id(), handler.handle(request.method(), params));
        } catch (McpErrorException e) {
            reply = new ErrorResponse(request.id(), e.error());
        } catch (RuntimeException e) {
            log.warn("{}: handler for {} failed", name, request.method(), e);
            reply = new ErrorResponse(request.id(), JsonRpcError.of(ErrorCodes.INTERNAL_ERROR,
                    "client failed to handle " + request.method() + ": " + e.getMessage()));
        }
        try {
            Outbound outbound = new Outbound(reply, Map.of(), requestTimeout);
            resends.message("response to " + request.id(), () -> source.send(outbound));
        } catch (McpException e) {
            log.info("{}: could not answer {} {}: {}", name, request.method(), request.id(), e.getMessage());
        }
    }
}

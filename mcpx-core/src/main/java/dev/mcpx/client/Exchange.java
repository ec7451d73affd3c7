package dev.mcpx.client;

import dev.mcpx.client.PendingRequests.Waiter;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One attempt at a request on the current transport: a new id, one send, one wait for the
 * reply; a caller that stops waiting (timeout, cancellation, interrupt) tells the upstream.
 * Whether to attempt again is the client's decision, not this one's.
 */
final class Exchange {

    private static final Logger log = LoggerFactory.getLogger(Exchange.class);

    private final String name;
    private final AtomicLong ids = new AtomicLong();
    private final PendingRequests pending;
    private final SessionRecovery sessions;
    private final EraSwitch eraSwitch;
    private final Resends resends;
    private final RequestParams requestParams;
    private final Catalogues catalogues;
    private final Duration requestTimeout;
    private final Supplier<Transport> transport;
    private final Supplier<ServerDescription> server;

    Exchange(String name, PendingRequests pending, SessionRecovery sessions, EraSwitch eraSwitch, Resends resends,
            RequestParams requestParams, Catalogues catalogues, Duration requestTimeout, Supplier<Transport> transport,
            Supplier<ServerDescription> server) {
        this.name = name;
        this.pending = pending;
        this.sessions = sessions;
        this.eraSwitch = eraSwitch;
        this.resends = resends;
        this.requestParams = requestParams;
        this.catalogues = catalogues;
        this.requestTimeout = requestTimeout;
        this.transport = transport;
        this.server = server;
    }

    /** One attempt: a new id, one send, one wait. */
    JsonNode run(String method, ObjectNode params, RequestOptions options, Attempt attempt) {
        RequestId id = RequestId.of(ids.incrementAndGet());
        attempt.id = id;
        attempt.sent.accept(id);
        ObjectNode sent = requestParams.prepare(params, options, id, attempt.metaVersion);
        Waiter waiter = pending.register(id, method, options.progress(), options.serverRequests(), options.logs());
        Cancellation cancellation = options.cancellation();
        Transport t = transport.get();
        // the abandon ends a collect this thread may be blocked in; the catch below abandons again
        Runnable stopListening = cancellation == null ? () -> { }
                : cancellation.onCancel(reason -> {
                    pending.fail(id, new RequestCancelledException(reason));
                    t.abandon(id);
                });
        Duration timeout = options.timeout() != null ? options.timeout() : requestTimeout;
        Deadline deadline = Deadline.after(method, timeout);
        try {
            Outbound outbound = new Outbound(new Request(id, method, sent), catalogues.paramHeaders(t, method, sent),
                    timeout, true);
            if (Methods.INITIALIZE.equals(method)) {
                t.send(outbound);
            } else {
                sessions.send(deadline, generation -> {
                    attempt.generation = generation;
                    // a re-probe attaches its transport before it describes the server, so a request
                    // made in between for the old era may hold the new transport: it has not left yet
                    if (transport.get() != t || attempt.era != null && server.get().era() != attempt.era) {
                        throw EraSwitch.replacedBeforeSending(name);
                    }
                    eraSwitch.sent(id, t);
                    t.send(outbound);
                });
            }
            if (!waiter.reply().isDone()) {
                t.collect(id, deadline.remaining());
            }
            JsonRpcMessage reply = await(waiter, deadline.remaining());
            if (!Methods.INITIALIZE.equals(method)) {
                sessions.answered(attempt.generation);
            }
            return switch (reply) {
                case Result result -> result.result();
                case ErrorResponse error -> throw new McpErrorException(error.error());
                default -> throw new IllegalStateException("not a response: " + reply);
            };
        } catch (TimeoutException e) {
            abandon(t, id, method, "timed out after " + timeout.toMillis() + " ms");
            throw new RequestTimeoutException(method, timeout);
        } catch (RequestTimeoutException e) {
            abandon(t, id, method, "timed out after " + timeout.toMillis() + " ms");
            throw e;
        } catch (RequestCancelledException e) {
            abandon(t, id, method, e.getMessage());
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(t, id, method, "caller interrupted");
            throw new RequestCancelledException("caller interrupted");
        } finally {
            stopListening.run();
            eraSwitch.finished(id);
            pending.remove(id);
        }
    }

    private static JsonRpcMessage await(Waiter waiter, Duration timeout) throws TimeoutException, InterruptedException {
        try {
            return waiter.reply().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof McpException mcp) {
                throw mcp;
            }
            throw new UpstreamUnavailableException("request failed: " + e.getCause(), e.getCause());
        }
    }

    private void abandon(Transport t, RequestId id, String method, String reason) {
        if (Methods.INITIALIZE.equals(method) || t.abandon(id)) {
            return;
        }
        ObjectNode params = Json.object();
        params.set("requestId", id.toJson());
        params.put("reason", reason);
        // the caller has its answer already: a slow or stalled upstream must not hold it for the cancel
        Thread.ofVirtual().name("mcpx-cancel-" + id).start(() -> {
            try {
                Outbound cancel = new Outbound(new Notification(Methods.CANCELLED, params), Map.of(), requestTimeout);
                resends.message(Methods.CANCELLED, () -> t.send(cancel));
            } catch (McpException e) {
                log.debug("{}: could not send cancellation for {}: {}", name, id, e.getMessage());
            }
        });
    }

    /** Mutable per-attempt facts the recovery decision needs. */
    static final class Attempt {
        final ProtocolVersion metaVersion;
        /** The era the request was made for from the client's view of the server; null: sent as it is. */
        final Era era;
        RequestId id;
        long generation;
        /** Told the id before the request leaves (a subscription learns its subscription id). */
        Consumer<RequestId> sent = id -> { };

        /** A request that carries {@code metaVersion} whatever the client's view (era detection's own). */
        Attempt(ProtocolVersion metaVersion) {
            this.metaVersion = metaVersion;
            this.era = null;
        }

        /** A request made for the era of {@code seen}: if the era has changed by the time it is sent, it is made again. */
        Attempt(ServerDescription seen) {
            this.metaVersion = seen.era() == Era.MODERN ? seen.protocolVersion() : null;
            this.era = seen.era();
        }
    }
}

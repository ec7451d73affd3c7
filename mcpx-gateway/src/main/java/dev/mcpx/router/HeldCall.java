package dev.mcpx.router;

import dev.mcpx.client.Cancellation;
import dev.mcpx.client.ServerRequestHandler;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.RequestCancelledException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A modern host's call to a legacy upstream, held open across the host's MRTR rounds: the
 * upstream's server->client requests become the host's {@code inputRequests}, and the host's
 * retry carries the answers back to the requests still waiting upstream.
 */
final class HeldCall {

    /** One server->client request of the upstream, waiting for the host's answer. */
    private record Ask(String key, String method, ObjectNode params, CompletableFuture<JsonNode> answer) {
    }

    private final String method;
    private final String target;
    private final Duration askBound;
    private final Duration cancelPoll;
    /** Released on every outcome, ask and refusal, so the waiting host request wakes at once. */
    private final Semaphore wake = new Semaphore(0);
    private final Cancellation upstreamCancellation = new Cancellation();
    private final CompletableFuture<JsonNode> outcome = new CompletableFuture<>();
    /** Set when the upstream asked what the host did not declare: the host's answer, then. */
    private final CompletableFuture<McpErrorException> hostRefusal = new CompletableFuture<>();
    private final BlockingQueue<Ask> asked = new LinkedBlockingQueue<>();
    /** Asked of the host and not answered yet, by key; guarded by {@code this}. */
    private final Map<String, Ask> outstanding = new LinkedHashMap<>();
    private final AtomicInteger keys = new AtomicInteger();
    private volatile HostCall host;
    private volatile String closedBecause;

    /**
     * {@code askBound}: the longest an upstream request waits for the host, whatever happens;
     * {@code cancelPoll}: how often a waiting host request looks at its host's cancellation (the
     * one thing that does not wake it); {@code first}: the host request that starts the call (it
     * may ask before that request waits).
     */
    HeldCall(String method, String target, Duration askBound, Duration cancelPoll, HostCall first) {
        this.method = method;
        this.target = target;
        this.askBound = askBound;
        this.cancelPoll = cancelPoll;
        this.host = first;
        outcome.whenComplete((result, failure) -> wake.release());
        hostRefusal.whenComplete((refusal, failure) -> wake.release());
    }

    boolean matches(String retryMethod, String retryTarget) {
        return method.equals(retryMethod) && target.equals(retryTarget);
    }

    Cancellation upstreamCancellation() {
        return upstreamCancellation;
    }

    /** Runs the upstream call on its own thread: it outlives the host request that started it. */
    void startUpstream(Function<HeldCall, JsonNode> upstreamCall) {
        Thread.ofVirtual().name("mcpx-held-" + method).start(() -> {
            try {
                outcome.complete(upstreamCall.apply(this));
            } catch (Throwable e) {
                // whatever ends the upstream call must end the host's wait too
                outcome.completeExceptionally(e);
            }
        });
    }

    /** Answers the upstream's server->client requests by asking the host in its next round. */
    ServerRequestHandler upstreamAsks() {
        return (askedMethod, params) -> {
            if (Methods.PING.equals(askedMethod)) {
                return Json.object();
            }
            String closed = closedBecause;
            if (closed != null) {
                throw error(ErrorCodes.INTERNAL_ERROR, closed);
            }
            HostCall current = host;
            ObjectNode missing = HostCapabilities.missing(current == null ? null : current.hostCapabilities(),
                    askedMethod, params);
            if (missing != null && Methods.ROOTS_LIST.equals(askedMethod)) {
                // servers ask for roots unprompted (at start, after a change), and over stdio such an ask
                // is only guessed to belong to this call: refuse it as a host without roots would, and let
                // the call end as the upstream decides, never with -32021 the upstream did not send
                throw error(ErrorCodes.METHOD_NOT_FOUND, "the host did not declare roots");
            }
            if (missing != null) {
                // the host hears -32021 (2026-07-28 basic/index.md); the upstream's request is refused
                McpErrorException forHost = HostCapabilities.missingError(missing);
                hostRefusal.complete(forHost);
                throw error(ErrorCodes.METHOD_NOT_FOUND, "the host did not declare " + missing
                        + ", so mcpx cannot pass " + askedMethod + " to it");
            }
            Ask ask = new Ask("mcpx-" + keys.incrementAndGet(), askedMethod, params, new CompletableFuture<>());
            asked.add(ask);
            wake.release();
            if (closedBecause != null) {
                ask.answer().completeExceptionally(error(ErrorCodes.INTERNAL_ERROR, closedBecause));
            }
            try {
                return ask.answer().get(askBound.toNanos(), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof McpException mcp ? mcp
                        : error(ErrorCodes.INTERNAL_ERROR, "mcpx could not pass " + askedMethod + ": " + e.getCause());
            } catch (TimeoutException e) {
                throw error(ErrorCodes.INTERNAL_ERROR, "the host did not answer " + askedMethod + " in time");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw error(ErrorCodes.INTERNAL_ERROR, "interrupted while " + askedMethod + " waited for the host");
            }
        };
    }

    /** The upstream's progress, to the host request waiting now, with that request's own token. */
    void progress(ObjectNode upstreamProgress) {
        HostCall current = host;
        JsonNode token = current == null ? null : Router.progressToken(current.params());
        if (token != null && current.hostProgress() != null) {
            ObjectNode hostProgress = upstreamProgress.deepCopy();
            hostProgress.set(MetaKeys.PROGRESS_TOKEN, token);
            current.hostProgress().accept(hostProgress);
        }
    }

    /** The upstream's log line, to the host request waiting now, if it asked for logs. */
    void log(ObjectNode params) {
        HostCall current = host;
        var toHost = current == null ? null : CallLogs.toHost(current);
        if (toHost != null) {
            toHost.accept(params);
        }
    }

    /** The host's answers to the requests it was asked; a missing one is asked again next round. */
    synchronized void deliver(ObjectNode inputResponses) {
        for (var it = outstanding.entrySet().iterator(); it.hasNext(); ) {
            var entry = it.next();
            JsonNode answer = inputResponses == null ? null : inputResponses.get(entry.getKey());
            if (answer instanceof ObjectNode result) {
                entry.getValue().answer().complete(result);
                it.remove();
            }
        }
    }

    /**
     * Waits for what comes first: the upstream's final result (returned, or its error thrown)
     * or its next server->client requests, returned as an {@code InputRequiredResult} whose
     * {@code requestState} {@code hold} mints (null from {@code hold}: no room to hold the call).
     */
    JsonNode awaitTurn(HostCall current, Function<HeldCall, String> hold) {
        host = current;
        boolean askNow;
        synchronized (this) {
            askNow = !outstanding.isEmpty();
        }
        while (true) {
            Cancellation hostCancellation = current.cancellation();
            if (hostCancellation != null && hostCancellation.isCancelled()) {
                close("the host cancelled its call");
                upstreamCancellation.cancel(hostCancellation.reason());
                throw new RequestCancelledException(hostCancellation.reason());
            }
            if (hostRefusal.isDone()) {
                close("the host cannot answer what the upstream asked");
                upstreamCancellation.cancel("the host lacks a capability the call needs");
                throw hostRefusal.join();
            }
            if (outcome.isDone()) {
                close("the call has ended");
                return finalOutcome();
            }
            if (askNow || takeAsks()) {
                String token = hold.apply(this);
                if (token != null) {
                    return inputRequired(token);
                }
                refuseOutstanding("mcpx holds too many calls waiting for their hosts; try again later");
            }
            askNow = false;
            awaitWake();
        }
    }

    private void awaitWake() {
        try {
            wake.tryAcquire(cancelPoll.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("interrupted");
        }
    }

    /** Moves what the upstream asked into {@link #outstanding}; false when it has asked nothing new. */
    private boolean takeAsks() {
        Ask first = asked.poll();
        if (first == null) {
            return false;
        }
        List<Ask> batch = new ArrayList<>(List.of(first));
        asked.drainTo(batch);
        synchronized (this) {
            batch.forEach(ask -> outstanding.put(ask.key(), ask));
        }
        return true;
    }

    private synchronized ObjectNode inputRequired(String token) {
        ObjectNode result = Json.object().put("resultType", "input_required");
        ObjectNode requests = result.putObject("inputRequests");
        outstanding.forEach((key, ask) -> {
            ObjectNode request = requests.putObject(key).put("method", ask.method());
            request.set("params", ask.params());
        });
        result.put("requestState", token);
        return result;
    }

    private JsonNode finalOutcome() {
        try {
            return outcome.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException("the held upstream call failed", e.getCause());
        }
    }

    /** The host never came back: its upstream requests get an error and nothing more is held. */
    void expire(Duration after) {
        close("the host did not retry within " + after.toMillis() + " ms, so mcpx dropped its held call");
    }

    private void close(String why) {
        closedBecause = why;
        refuseOutstanding(why);
        List<Ask> queued = new ArrayList<>();
        asked.drainTo(queued);
        queued.forEach(ask -> ask.answer().completeExceptionally(error(ErrorCodes.INTERNAL_ERROR, why)));
    }

    private synchronized void refuseOutstanding(String why) {
        outstanding.values().forEach(ask -> ask.answer().completeExceptionally(error(ErrorCodes.INTERNAL_ERROR, why)));
        outstanding.clear();
    }

    private static McpErrorException error(int code, String message) {
        return new McpErrorException(JsonRpcError.of(code, message));
    }
}

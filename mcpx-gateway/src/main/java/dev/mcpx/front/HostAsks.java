package dev.mcpx.front;

import dev.mcpx.client.Cancellation;
import dev.mcpx.client.ServerRequestHandler;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.RequestId;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A legacy host's side of server->client requests: an upstream's {@code sampling/createMessage},
 * {@code elicitation/create} or {@code roots/list} goes to the host that made the call (with an
 * id of mcpx's own) and the host's response comes back through {@link #complete}. A host that
 * did not declare the capability, went away, or does not answer within the timeout gets the
 * upstream a JSON-RPC error, never a hang.
 */
public final class HostAsks {

    private static final Duration POLL = Duration.ofMillis(200);

    private final ObjectNode capabilities;
    private final Duration timeout;
    private final AtomicLong ids = new AtomicLong();
    /** Tells this copy's ids from those of the same session's copy on another replica (their answers may be forwarded here). */
    private final String idTag = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> 16);
    private final Map<RequestId, CompletableFuture<JsonRpcMessage>> waiting = new ConcurrentHashMap<>();
    private final Consumer<Notification> outsideCalls;
    private final Supplier<String> inputEnded;

    /**
     * {@code capabilities}: what the host declared at initialize (null: nothing).
     * {@code outsideCalls}: where the host hears mcpx once a call was answered (its listen stream,
     * stdout); null: nowhere. {@code inputEnded}: why the host can send nothing more (it closed
     * stdin), or null while it can: an ask it could never answer fails then instead of waiting out
     * its timeout.
     */
    public HostAsks(ObjectNode capabilities, Duration timeout, Consumer<Notification> outsideCalls,
                    Supplier<String> inputEnded) {
        this.capabilities = capabilities == null ? Json.object() : capabilities.deepCopy();
        this.timeout = timeout;
        this.outsideCalls = outsideCalls;
        this.inputEnded = inputEnded;
    }

    /** What the host declared at initialize (a copy). */
    public ObjectNode capabilities() {
        return capabilities.deepCopy();
    }

    /** The capability a server->client request needs, or null when none is needed. */
    static String capabilityFor(String method) {
        return switch (method) {
            case Methods.SAMPLING_CREATE_MESSAGE -> "sampling";
            case Methods.ELICITATION_CREATE -> "elicitation";
            case Methods.ROOTS_LIST -> "roots";
            default -> null;
        };
    }

    /**
     * A handler for one host call: {@code send} writes a request to the host (false: the host is
     * gone); {@code cancellation} ends the wait when the call is cancelled.
     */
    public ServerRequestHandler forCall(Predicate<JsonRpcMessage> send, Cancellation cancellation) {
        return new ForCall(this, send, cancellation);
    }

    /** What the host hears after {@code hostAsks}' call was answered, or null when it cannot be told. */
    static Consumer<Notification> outsideCalls(ServerRequestHandler hostAsks) {
        return hostAsks instanceof ForCall call ? call.asks.outsideCalls : null;
    }

    private record ForCall(HostAsks asks, Predicate<JsonRpcMessage> send, Cancellation cancellation)
            implements ServerRequestHandler {
        @Override
        public JsonNode handle(String method, ObjectNode params) {
            return asks.ask(method, params, send, cancellation);
        }
    }

    private JsonNode ask(String method, ObjectNode params, Predicate<JsonRpcMessage> send, Cancellation cancellation) {
        String capability = capabilityFor(method);
        if (capability == null && !Methods.PING.equals(method)) {
            throw error(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method);
        }
        if (capability != null && !capabilities.has(capability)) {
            throw error(ErrorCodes.METHOD_NOT_FOUND, "the host did not declare the " + capability
                    + " capability, so mcpx cannot pass " + method + " to it");
        }
        failIfInputEnded(method);
        RequestId id = RequestId.of("mcpx-ask-" + idTag + "-" + ids.incrementAndGet());
        CompletableFuture<JsonRpcMessage> answer = new CompletableFuture<>();
        waiting.put(id, answer);
        try {
            if (!send.test(new Request(id, method, params))) {
                throw error(ErrorCodes.INTERNAL_ERROR, "the host went away before mcpx could pass " + method + " to it");
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                if (cancellation != null && cancellation.isCancelled()) {
                    throw error(ErrorCodes.INTERNAL_ERROR, "the host's call was cancelled while " + method + " waited for it");
                }
                failIfInputEnded(method);
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw error(ErrorCodes.INTERNAL_ERROR, "the host did not answer " + method + " within "
                            + timeout.toMillis() + " ms");
                }
                try {
                    JsonRpcMessage reply = answer.get(Math.min(left, POLL.toNanos()), TimeUnit.NANOSECONDS);
                    return switch (reply) {
                        case Result result -> result.result();
                        case ErrorResponse failure -> throw new McpErrorException(failure.error());
                        default -> throw error(ErrorCodes.INTERNAL_ERROR, "not a response: " + reply);
                    };
                } catch (TimeoutException e) {
                    // poll the cancellation and the deadline again
                } catch (ExecutionException e) {
                    throw error(ErrorCodes.INTERNAL_ERROR, "mcpx could not pass " + method + ": " + e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw error(ErrorCodes.INTERNAL_ERROR, "interrupted while " + method + " waited for the host");
                }
            }
        } finally {
            waiting.remove(id);
        }
    }

    private void failIfInputEnded(String method) {
        String ended = inputEnded.get();
        if (ended != null) {
            throw error(ErrorCodes.INTERNAL_ERROR, "the host " + ended + ", so it cannot answer " + method);
        }
    }

    /** A response the host sent; false when no ask is waiting for its id. */
    public boolean complete(JsonRpcMessage response) {
        RequestId id = switch (response) {
            case Result result -> result.id();
            case ErrorResponse failure -> failure.id();
            default -> null;
        };
        CompletableFuture<JsonRpcMessage> answer = id == null ? null : waiting.get(id);
        return answer != null && answer.complete(response);
    }

    private static McpErrorException error(int code, String message) {
        return new McpErrorException(JsonRpcError.of(code, message));
    }
}

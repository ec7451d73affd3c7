package dev.mcpx.client;

import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.RequestId;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * The table id -> waiter of requests sent and not yet answered. Entries are removed by the
 * waiter itself whatever happens (reply, error, timeout, cancel), so nothing leaks.
 */
final class PendingRequests {

    /** One request waiting for its reply. */
    record Waiter(RequestId id, String method, CompletableFuture<JsonRpcMessage> reply,
                  Consumer<ObjectNode> progress, ServerRequestHandler serverRequests, Consumer<ObjectNode> logs) {
    }

    private final Map<RequestId, Waiter> byId = new ConcurrentHashMap<>();

    Waiter register(RequestId id, String method, Consumer<ObjectNode> progress) {
        return register(id, method, progress, null, null);
    }

    /**
     * {@code serverRequests}: answers what the upstream asks during this request (null: the
     * client-wide handler); {@code logs}: receives its log notifications (null: none).
     */
    Waiter register(RequestId id, String method, Consumer<ObjectNode> progress, ServerRequestHandler serverRequests,
                    Consumer<ObjectNode> logs) {
        Waiter waiter = new Waiter(id, method, new CompletableFuture<>(), progress, serverRequests, logs);
        if (byId.putIfAbsent(id, waiter) != null) {
            throw new IllegalStateException("request id " + id + " is already pending");
        }
        return waiter;
    }

    /** Hands a response to its waiter; false when no request with that id is pending. */
    boolean complete(RequestId id, JsonRpcMessage reply) {
        Waiter waiter = id == null ? null : byId.get(id);
        return waiter != null && waiter.reply().complete(reply);
    }

    void fail(RequestId id, McpException error) {
        Waiter waiter = byId.get(id);
        if (waiter != null) {
            waiter.reply().completeExceptionally(error);
        }
    }

    void failAll(McpException error) {
        byId.values().forEach(waiter -> waiter.reply().completeExceptionally(error));
    }

    Waiter get(RequestId id) {
        return id == null ? null : byId.get(id);
    }

    void remove(RequestId id) {
        byId.remove(id);
    }

    /**
     * The per-request handler of the only pending request that has one, or null when none or
     * several do: how a server request that names no related request (stdio) still finds its call.
     * A request whose answer was read already is not waiting for anything the server sends after it.
     */
    ServerRequestHandler soleHandler() {
        ServerRequestHandler found = null;
        for (Waiter waiter : byId.values()) {
            if (waiter.serverRequests() != null && !waiter.reply().isDone()) {
                if (found != null) {
                    return null;
                }
                found = waiter.serverRequests();
            }
        }
        return found;
    }

    /**
     * The log listener of the only pending request that has one, or null when none or several do;
     * as {@link #soleHandler}, a request answered already (its waiter not yet gone) does not count.
     */
    Consumer<ObjectNode> soleLogs() {
        Consumer<ObjectNode> found = null;
        for (Waiter waiter : byId.values()) {
            if (waiter.logs() != null && !waiter.reply().isDone()) {
                if (found != null) {
                    return null;
                }
                found = waiter.logs();
            }
        }
        return found;
    }

    int size() {
        return byId.size();
    }
}

package dev.mcpx.client;

import java.time.Duration;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * Per-request settings. {@code timeout} null means the client's default; {@code progress}
 * receives the params of each {@code notifications/progress} for this request (null: none
 * requested); {@code cancellation} may be null. {@code clientCapabilities} (null: the client's
 * own) is what a modern request declares in {@code _meta}; {@code returnInputRequired} hands a
 * modern {@code InputRequiredResult} back to the caller (who retries itself) instead of resolving
 * it here; {@code serverRequests} (null: the client-wide handler) answers what the upstream asks
 * during this request; {@code logs} (null: none) receives the params of each
 * {@code notifications/message} the upstream relates to this request. {@code recoveries} (null:
 * nobody listens) hears each recovery the request gets, on the requesting thread.
 */
public record RequestOptions(Duration timeout, Consumer<ObjectNode> progress, Cancellation cancellation,
                             ObjectNode clientCapabilities, boolean returnInputRequired,
                             ServerRequestHandler serverRequests, Consumer<ObjectNode> logs,
                             Consumer<RecoveryTaken> recoveries) {

    public RequestOptions(Duration timeout, Consumer<ObjectNode> progress, Cancellation cancellation) {
        this(timeout, progress, cancellation, null, false, null, null, null);
    }

    public static RequestOptions defaults() {
        return new RequestOptions(null, null, null);
    }

    public RequestOptions withTimeout(Duration newTimeout) {
        return new RequestOptions(newTimeout, progress, cancellation, clientCapabilities, returnInputRequired, serverRequests, logs, recoveries);
    }

    public RequestOptions withProgress(Consumer<ObjectNode> listener) {
        return new RequestOptions(timeout, listener, cancellation, clientCapabilities, returnInputRequired, serverRequests, logs, recoveries);
    }

    public RequestOptions withCancellation(Cancellation signal) {
        return new RequestOptions(timeout, progress, signal, clientCapabilities, returnInputRequired, serverRequests, logs, recoveries);
    }

    public RequestOptions withClientCapabilities(ObjectNode capabilities) {
        return new RequestOptions(timeout, progress, cancellation, capabilities, returnInputRequired, serverRequests, logs, recoveries);
    }

    public RequestOptions withReturnInputRequired(boolean returnToCaller) {
        return new RequestOptions(timeout, progress, cancellation, clientCapabilities, returnToCaller, serverRequests, logs, recoveries);
    }

    public RequestOptions withServerRequests(ServerRequestHandler handler) {
        return new RequestOptions(timeout, progress, cancellation, clientCapabilities, returnInputRequired, handler, logs, recoveries);
    }

    public RequestOptions withLogs(Consumer<ObjectNode> listener) {
        return new RequestOptions(timeout, progress, cancellation, clientCapabilities, returnInputRequired, serverRequests, listener, recoveries);
    }

    public RequestOptions withRecoveries(Consumer<RecoveryTaken> listener) {
        return new RequestOptions(timeout, progress, cancellation, clientCapabilities, returnInputRequired, serverRequests,
                logs, listener);
    }
}

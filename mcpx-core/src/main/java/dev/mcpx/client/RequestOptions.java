package dev.mcpx.client;

import java.time.Duration;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * Per-request settings. {@code timeout} null means the client's default; {@code progress}
 * receives the params of each {@code notifications/progress} for this request (null: none
 * requested); {@code cancellation} may be null.
 */
public record RequestOptions(Duration timeout, Consumer<ObjectNode> progress, Cancellation cancellation) {

    public static RequestOptions defaults() {
        return new RequestOptions(null, null, null);
    }

    public RequestOptions withTimeout(Duration newTimeout) {
        return new RequestOptions(newTimeout, progress, cancellation);
    }

    public RequestOptions withProgress(Consumer<ObjectNode> listener) {
        return new RequestOptions(timeout, listener, cancellation);
    }

    public RequestOptions withCancellation(Cancellation signal) {
        return new RequestOptions(timeout, progress, signal);
    }
}

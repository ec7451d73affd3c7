package dev.mcpx.client;

import dev.mcpx.protocol.RequestTimeoutException;
import java.time.Duration;

/**
 * When one request must be answered by: set once when the request enters the client (or the
 * pool) and carried through every wait, retry, re-initialize, re-issue and era switch, so that no
 * step gets a fresh timeout of its own.
 *
 * @param method  the request's method, for the timeout's message
 * @param timeout the whole time the request was given
 */
record Deadline(String method, Duration timeout, long atNanos) {

    static Deadline after(String method, Duration timeout) {
        return new Deadline(method, timeout, System.nanoTime() + timeout.toNanos());
    }

    /** What is left, never negative. */
    Duration remaining() {
        return Duration.ofNanos(Math.max(0, atNanos - System.nanoTime()));
    }

    boolean passed() {
        return System.nanoTime() - atNanos >= 0;
    }

    /** The failure of a request whose deadline passed while it waited for something. */
    RequestTimeoutException expired() {
        return new RequestTimeoutException(method, timeout);
    }
}

package dev.mcpx.front;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcError;
import java.util.concurrent.Semaphore;

/**
 * How many requests one host may have in flight at once. One host cannot starve the others
 * (or the gateway's memory) by opening calls faster than upstreams answer; a request over the
 * limit is answered at once with {@link ErrorCodes#TOO_MANY_CALLS}.
 */
public final class CallLimit {

    public static final int DEFAULT_PER_HOST = 64;

    private final int max;
    private final Semaphore permits;

    public CallLimit(int max) {
        if (max <= 0) {
            throw new IllegalArgumentException("a call limit must be positive");
        }
        this.max = max;
        this.permits = new Semaphore(max);
    }

    /** No limit in practice: for a request that belongs to no host session (a 2026-07-28 HTTP request). */
    public static CallLimit unlimited() {
        return new CallLimit(Integer.MAX_VALUE);
    }

    public static CallLimit perHost() {
        return new CallLimit(DEFAULT_PER_HOST);
    }

    /** Takes a slot; false when the host is at its limit. A true must be followed by {@link #release()}. */
    public boolean tryAcquire() {
        return permits.tryAcquire();
    }

    public void release() {
        permits.release();
    }

    /** The error a request over the limit gets. */
    public JsonRpcError refusal() {
        return JsonRpcError.of(ErrorCodes.TOO_MANY_CALLS,
                "too many calls in flight: this host may have " + max
                        + " at once (maxConcurrentCallsPerHost); retry when one has been answered");
    }
}

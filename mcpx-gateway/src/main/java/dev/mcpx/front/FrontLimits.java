package dev.mcpx.front;

/**
 * What one host may send the gateway: the front's share of the operator's limits.
 *
 * @param maxMessageBytes largest message: an HTTP POST body or a stdio line
 * @param maxHeaderBytes  largest request header block on HTTP (Jetty answers 431 past it)
 * @param maxCallsPerHost requests one host may have in flight at once (-32005 past it)
 */
public record FrontLimits(int maxMessageBytes, int maxHeaderBytes, int maxCallsPerHost) {

    public static final FrontLimits DEFAULTS = new FrontLimits(16 * 1024 * 1024, 8 * 1024, CallLimit.DEFAULT_PER_HOST);

    public FrontLimits {
        if (maxMessageBytes <= 0 || maxHeaderBytes <= 0 || maxCallsPerHost <= 0) {
            throw new IllegalArgumentException("front limits must be positive");
        }
    }

    /** A fresh call limit for one host. */
    public CallLimit callLimit() {
        return new CallLimit(maxCallsPerHost);
    }
}

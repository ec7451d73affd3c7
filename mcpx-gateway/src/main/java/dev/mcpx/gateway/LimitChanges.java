package dev.mcpx.gateway;

import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.Limits;
import dev.mcpx.front.FrontLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The front's share of the operator's limits, and what a live edit of them can and cannot change. */
final class LimitChanges {

    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

    private LimitChanges() {
    }

    static FrontLimits front(Limits limits) {
        return new FrontLimits(limits.maxMessageBytes(), limits.maxHeaderBytes(), limits.maxConcurrentCallsPerHost());
    }

    /**
     * Upstream limits apply on reload (the pool restarts the upstreams whose config changed); the
     * front's are fixed in its connector and its hosts' call limits, so the operator is told.
     */
    static void warnFrontRestartNeeded(FrontLimits running, FrontLimits next) {
        warn("maxMessageBytes", running.maxMessageBytes(), next.maxMessageBytes(),
                "to host messages (upstreams already use it)");
        warn("maxHeaderBytes", running.maxHeaderBytes(), next.maxHeaderBytes(), "");
        warn("maxConcurrentCallsPerHost", running.maxCallsPerHost(), next.maxCallsPerHost(), "");
    }

    /** Tokens and TLS files are read when the HTTP front starts; an edit of them is only logged (names, never secrets). */
    static void warnFrontAccessChanged(GatewayConfig running, GatewayConfig next) {
        if (!running.tokens().equals(next.tokens())) {
            LOG.warn("mcpx.token/mcpx.tokens changed (now: {}): restart mcpx serve to apply them",
                    next.tokens().stream().map(token -> token.name()).toList());
        }
        if (!running.tls().equals(next.tls())) {
            LOG.warn("mcpx.tls changed: restart mcpx serve to apply it (edits of the certificate files themselves "
                    + "are picked up while it runs)");
        }
    }

    private static void warn(String key, long running, long next, String note) {
        if (running != next) {
            LOG.warn("mcpx.limits.{} changed from {} to {}: restart mcpx serve to apply it{}", key, running, next,
                    note.isEmpty() ? "" : " " + note);
        }
    }
}

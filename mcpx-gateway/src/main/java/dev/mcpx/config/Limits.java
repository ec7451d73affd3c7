package dev.mcpx.config;

import java.time.Duration;

/**
 * The operator's limits ({@code "mcpx": {"limits": {...}}}), each with the default mcpx had
 * before it was configurable.
 *
 * @param maxMessageBytes           largest JSON-RPC message, either way: a host's POST body or stdio
 *                                  line, an upstream's stdio line or JSON body
 * @param maxSseEventBytes          largest SSE event read from an upstream
 * @param maxHeaderBytes            largest request header block a host may send to the HTTP front
 * @param maxConcurrentCallsPerHost requests one host (a stdio host, a legacy HTTP session) may have in flight
 * @param requestTimeout            per request, for upstreams whose entry sets no {@code requestTimeoutMs}
 */
public record Limits(int maxMessageBytes, int maxSseEventBytes, int maxHeaderBytes, int maxConcurrentCallsPerHost,
                     Duration requestTimeout) {

    public static final Limits DEFAULTS = new Limits(16 * 1024 * 1024, 16 * 1024 * 1024, 8 * 1024, 64,
            Duration.ofSeconds(60));

    /** The part each upstream's client gets; changing it restarts the upstreams on reload. */
    public MessageLimits messages() {
        return new MessageLimits(maxMessageBytes, maxSseEventBytes);
    }

    /** What an upstream's client reads at most. */
    public record MessageLimits(int maxMessageBytes, int maxSseEventBytes) {
        public static final MessageLimits DEFAULTS = Limits.DEFAULTS.messages();
    }
}

package dev.mcpx.transport.http;

import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.UpstreamEndpoint;

/**
 * The legacy HTTP transports: Streamable HTTP as 2025-03-26 .. 2025-11-25 define it (sessions,
 * resumable streams), and the deprecated 2024-11-05 HTTP+SSE transport for old servers.
 */
public final class LegacyHttpTransports {

    private LegacyHttpTransports() {
    }

    /** Streamable HTTP with legacy sessions; the client runs the {@code initialize} handshake. */
    public static Transport streamable(UpstreamEndpoint.Http endpoint) {
        return streamable(endpoint, LegacyHttpOptions.defaults());
    }

    public static Transport streamable(UpstreamEndpoint.Http endpoint, LegacyHttpOptions options) {
        return new LegacyHttpTransport(endpoint, options);
    }

    /**
     * The 2024-11-05 HTTP+SSE transport: {@code endpoint.url()} is the SSE URL. {@code start}
     * blocks until the server names its POST URL.
     */
    public static Transport httpSse(UpstreamEndpoint.Http endpoint) {
        return httpSse(endpoint, LegacyHttpOptions.defaults());
    }

    public static Transport httpSse(UpstreamEndpoint.Http endpoint, LegacyHttpOptions options) {
        return new HttpSseTransport(endpoint, options);
    }

    /**
     * Whether a Streamable HTTP POST failed the way a server that speaks only the old HTTP+SSE
     * transport fails: HTTP 400, 404 or 405 with no JSON-RPC error in the body (spec 2025-11-25,
     * transports, backwards compatibility). Then the client tries {@link #httpSse} on the same URL.
     */
    public static boolean suggestsHttpSse(McpException failure) {
        return failure instanceof HttpStatusException status
                && (status.status() == 400 || status.status() == 404 || status.status() == 405)
                && ResponseBodies.errorResponse(status.body()) == null;
    }
}

package dev.mcpx.transport.http;

import dev.mcpx.transport.Transport;
import dev.mcpx.transport.UpstreamEndpoint;

/**
 * Opens the 2026-07-28 Streamable HTTP transport (stateless, no sessions): the concrete class
 * stays behind this factory, as the legacy ones stay behind {@link LegacyHttpTransports}.
 */
public final class ModernHttpTransports {

    private ModernHttpTransports() {
    }

    /** {@code maxMessageBytes} bounds a JSON body or JSON-RPC message, {@code maxEventBytes} an SSE event. */
    public static Transport open(UpstreamEndpoint.Http endpoint, int maxMessageBytes, int maxEventBytes) {
        return new ModernHttpTransport(endpoint, maxMessageBytes, maxEventBytes);
    }
}

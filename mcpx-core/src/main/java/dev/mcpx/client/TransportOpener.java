package dev.mcpx.client;

import dev.mcpx.transport.Transport;
import dev.mcpx.transport.UpstreamEndpoint;
import dev.mcpx.transport.http.LegacyHttpOptions;
import dev.mcpx.transport.http.LegacyHttpTransports;
import dev.mcpx.transport.http.ModernHttpTransports;
import dev.mcpx.transport.stdio.StdioTransports;

/** Opens the transport for an endpoint, by the wire the era detection is trying. */
final class TransportOpener {

    enum Wire {
        STDIO,
        MODERN_HTTP,
        LEGACY_HTTP,
        HTTP_SSE
    }

    private final int maxMessageChars;
    private final int maxEventBytes;

    TransportOpener(int maxMessageChars, int maxEventBytes) {
        this.maxMessageChars = maxMessageChars;
        this.maxEventBytes = maxEventBytes;
    }

    Transport open(UpstreamEndpoint endpoint, Wire wire) {
        return switch (endpoint) {
            case UpstreamEndpoint.Stdio stdio -> StdioTransports.open(stdio, maxMessageChars);
            case UpstreamEndpoint.Http http -> switch (wire) {
                case LEGACY_HTTP -> LegacyHttpTransports.streamable(http, legacyOptions());
                case HTTP_SSE -> LegacyHttpTransports.httpSse(http, legacyOptions());
                case MODERN_HTTP -> ModernHttpTransports.open(http, maxMessageChars, maxEventBytes);
                case STDIO -> throw new IllegalArgumentException("stdio is not a wire for " + http.url());
            };
        };
    }

    private LegacyHttpOptions legacyOptions() {
        return LegacyHttpOptions.defaults().withLimits(maxMessageChars, maxEventBytes);
    }
}

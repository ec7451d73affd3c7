package dev.mcpx.transport.stdio;

import dev.mcpx.transport.Transport;
import dev.mcpx.transport.UpstreamEndpoint;

/** Opens the stdio transport: the concrete class stays behind this factory. */
public final class StdioTransports {

    private StdioTransports() {
    }

    /**
     * A child process started by {@link Transport#start}, newline-delimited JSON-RPC on its stdin
     * and stdout; a line longer than {@code maxMessageChars} fails the call it answers.
     */
    public static Transport open(UpstreamEndpoint.Stdio endpoint, int maxMessageChars) {
        return new StdioTransport(endpoint, maxMessageChars);
    }
}

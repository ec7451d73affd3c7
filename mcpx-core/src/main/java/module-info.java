/**
 * An MCP client for both protocol eras (2025-11-25 sessions, 2026-07-28 stateless) over stdio,
 * Streamable HTTP and the old HTTP+SSE transport, with the recoveries that keep a call working
 * when its upstream restarts or a stream breaks.
 *
 * <p>The API: {@link dev.mcpx.client.McpClient} and its builder ({@code dev.mcpx.client}), the
 * protocol values and exceptions ({@code dev.mcpx.protocol}), and the transport SPI
 * ({@code dev.mcpx.transport}), for a transport of your own, and the OAuth client for protected
 * servers ({@code dev.mcpx.auth}). The concrete transports
 * ({@code dev.mcpx.transport.http}, {@code dev.mcpx.transport.stdio}) are not exported: the
 * client opens them from an {@link dev.mcpx.transport.UpstreamEndpoint}.
 */
module dev.mcpx.core {
    requires transitive tools.jackson.databind;
    requires java.net.http;
    requires com.nimbusds.jose.jwt;
    requires org.slf4j;
    requires org.eclipse.jetty.client;
    requires org.eclipse.jetty.util;

    exports dev.mcpx.auth;
    exports dev.mcpx.client;
    exports dev.mcpx.protocol;
    exports dev.mcpx.transport;
}

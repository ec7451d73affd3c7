package dev.mcpx.bench;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The host side of every set-up: mcpx's own client, as a host library would use it. */
final class HostClients {

    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private HostClients() {
    }

    /** A host on the 2025-11-25 era, which is what hosts speak today, to a gateway or proxy. */
    static McpClient legacyHost(String name, URI url) {
        return McpClient.builder(UpstreamEndpoint.Http.of(url.toString())).name(name)
                .protocolVersion(ProtocolVersion.LATEST_LEGACY).requestTimeout(TIMEOUT).build().connect();
    }

    /** A client that detects the era, as a direct caller of a modern server would. */
    static McpClient detecting(String name, URI url) {
        return McpClient.builder(UpstreamEndpoint.Http.of(url.toString())).name(name)
                .requestTimeout(TIMEOUT).build().connect();
    }

    static McpClient stdio(String name, List<String> command) {
        UpstreamEndpoint.Stdio endpoint = new UpstreamEndpoint.Stdio(command.getFirst(),
                command.subList(1, command.size()), Map.of(), null, true);
        return McpClient.builder(endpoint).name(name).protocolVersion(ProtocolVersion.LATEST_LEGACY)
                .requestTimeout(TIMEOUT).build().connect();
    }

    /** One {@code tools/call} of an echo tool; a tool error counts as a failure. */
    static LoadDriver.Call echo(McpClient client, String tool) {
        return echo(client, tool, "hello");
    }

    /** As {@link #echo(McpClient, String)} with {@code text}; an answer that does not carry it back counts as a failure. */
    static LoadDriver.Call echo(McpClient client, String tool, String text) {
        return () -> {
            var result = client.callTool(tool, Json.object().put("text", text), RequestOptions.defaults());
            if (result.path("isError").asBoolean(false)) {
                throw new IllegalStateException("tool error: " + result);
            }
            if (result.path("content").path(0).path("text").asString("").length() < text.length()) {
                throw new IllegalStateException("the echo lost text: " + result.toString().substring(0, 200));
            }
        };
    }
}

package dev.mcpx.pool;

import dev.mcpx.auth.TokenStore;
import dev.mcpx.client.ClientEvent;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.ServerRequestHandler;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.login.TokenFile;
import dev.mcpx.protocol.TasksExtension;
import java.util.Set;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/** Builds an unconnected client for an upstream; tests substitute one to shorten timeouts. */
@FunctionalInterface
public interface ClientFactory {

    McpClient create(UpstreamConfig config, Consumer<ClientEvent> events);

    /**
     * The same, with what answers the upstream's requests outside any call ({@code roots/list}
     * from the hosts' roots); a factory that ignores it refuses them, as a plain client does.
     */
    default McpClient create(UpstreamConfig config, Consumer<ClientEvent> events, ServerRequestHandler outsideCalls) {
        return create(config, events);
    }

    /**
     * The production client: the config's endpoint, timeouts and re-issue overrides. A task result
     * is recognised even for a host that did not opt in: the router turns it into its outcome.
     */
    static ClientFactory standard(String version) {
        return standard(version, TokenFile.shared());
    }

    /** The same, OAuth upstreams' tokens in {@code tokens} (a cluster's, shared by its replicas). */
    static ClientFactory standard(String version, TokenStore tokens) {
        return new ClientFactory() {
            @Override
            public McpClient create(UpstreamConfig config, Consumer<ClientEvent> events) {
                return create(config, events, ServerRequestHandler.pingOnly());
            }

            @Override
            public McpClient create(UpstreamConfig config, Consumer<ClientEvent> events, ServerRequestHandler outsideCalls) {
                return config.clientBuilder(null, tokens).clientInfo("mcpx", version).events(events)
                        .capabilities(passThroughCapabilities()).listenForChanges(true).serverRequests(outsideCalls)
                        .handledResultTypes(Set.of(TasksExtension.RESULT_TYPE)).build();
            }
        };
    }

    /**
     * What a legacy upstream session is told at initialize: it is shared by every host, so it
     * declares all that mcpx can pass through to a host (a host lacking one gets its upstream a
     * JSON-RPC error). Modern requests declare the calling host's own capabilities instead.
     */
    static ObjectNode passThroughCapabilities() {
        var capabilities = dev.mcpx.protocol.Json.object();
        capabilities.putObject("roots");
        capabilities.putObject("sampling");
        // both modes, in the 2025-11-25 shape: an empty object would mean form only and hide URL-mode tools;
        // a host that lacks a mode still gets its upstream an error naming it (HostCapabilities)
        ObjectNode elicitation = capabilities.putObject("elicitation");
        elicitation.putObject("form");
        elicitation.putObject("url");
        return capabilities;
    }
}

package dev.mcpx.pool;

import dev.mcpx.client.ClientEvent;
import dev.mcpx.client.McpClient;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.protocol.TasksExtension;
import java.util.Set;
import java.util.function.Consumer;

/** Builds an unconnected client for an upstream; tests substitute one to shorten timeouts. */
@FunctionalInterface
public interface ClientFactory {

    McpClient create(UpstreamConfig config, Consumer<ClientEvent> events);

    /**
     * The production client: the config's endpoint, timeouts and re-issue overrides. A task result
     * is recognised even for a host that did not opt in: the router turns it into its outcome.
     */
    static ClientFactory standard(String version) {
        return (config, events) -> config.clientBuilder().clientInfo("mcpx", version).events(events)
                .capabilities(passThroughCapabilities()).listenForChanges(true)
                .handledResultTypes(Set.of(TasksExtension.RESULT_TYPE)).build();
    }

    /**
     * What a legacy upstream session is told at initialize: it is shared by every host, so it
     * declares all that mcpx can pass through to a host (a host lacking one gets its upstream a
     * JSON-RPC error). Modern requests declare the calling host's own capabilities instead.
     */
    static tools.jackson.databind.node.ObjectNode passThroughCapabilities() {
        var capabilities = dev.mcpx.protocol.Json.object();
        capabilities.putObject("roots");
        capabilities.putObject("sampling");
        capabilities.putObject("elicitation");
        return capabilities;
    }
}

package dev.mcpx.pool;

import dev.mcpx.client.ClientEvent;
import dev.mcpx.client.McpClient;
import dev.mcpx.config.UpstreamConfig;
import java.util.function.Consumer;

/** Builds an unconnected client for an upstream; tests substitute one to shorten timeouts. */
@FunctionalInterface
public interface ClientFactory {

    McpClient create(UpstreamConfig config, Consumer<ClientEvent> events);

    /** The production client: the config's endpoint, timeouts and re-issue overrides. */
    static ClientFactory standard(String version) {
        return (config, events) -> config.clientBuilder().clientInfo("mcpx", version).events(events)
                .listenForChanges(true).build();
    }
}

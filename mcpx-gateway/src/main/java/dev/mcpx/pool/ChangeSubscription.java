package dev.mcpx.pool;

import dev.mcpx.client.Cancellation;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Keeps a {@code subscriptions/listen} open on a modern upstream, so its list changes reach the
 * client as {@code list_changed} (legacy upstreams push them on their own). The stream is
 * re-opened whenever it ends, until the client is retired.
 */
final class ChangeSubscription {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeSubscription.class);
    private static final Duration STREAM_LIFETIME = Duration.ofHours(1);
    private static final Duration REOPEN_PAUSE = Duration.ofSeconds(1);

    private final Cancellation stopped = new Cancellation();

    /** Starts listening when the upstream is modern and announces list changes; returns the handle. */
    static ChangeSubscription open(String upstream, McpClient client, BooleanSupplier current, Runnable reopened) {
        ChangeSubscription subscription = new ChangeSubscription();
        ObjectNode filter = filter(client);
        if (client.server().era() == Era.MODERN && !filter.isEmpty()) {
            Thread.ofVirtual().name("mcpx-listen-" + upstream)
                    .start(() -> subscription.listen(upstream, client, filter, current, reopened));
        }
        return subscription;
    }

    private static ObjectNode filter(McpClient client) {
        ObjectNode capabilities = client.server().capabilities();
        ObjectNode filter = Json.object();
        if (capabilities == null) {
            return filter;
        }
        if (capabilities.path("tools").path("listChanged").asBoolean(false)) {
            filter.put("toolsListChanged", true);
        }
        if (capabilities.path("prompts").path("listChanged").asBoolean(false)) {
            filter.put("promptsListChanged", true);
        }
        if (capabilities.path("resources").path("listChanged").asBoolean(false)) {
            filter.put("resourcesListChanged", true);
        }
        return filter;
    }

    private void listen(String upstream, McpClient client, ObjectNode filter, BooleanSupplier current, Runnable reopened) {
        boolean first = true;
        while (!stopped.isCancelled() && current.getAsBoolean()) {
            if (!first) {
                reopened.run();
            }
            first = false;
            ObjectNode params = Json.object();
            params.set("notifications", filter.deepCopy());
            try {
                client.request(Methods.SUBSCRIPTIONS_LISTEN, params,
                        RequestOptions.defaults().withTimeout(STREAM_LIFETIME).withCancellation(stopped));
            } catch (McpException e) {
                LOG.debug("{}: subscriptions/listen ended: {}", upstream, e.getMessage());
            }
            try {
                Thread.sleep(REOPEN_PAUSE);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    void close() {
        stopped.cancel("client retired");
    }
}

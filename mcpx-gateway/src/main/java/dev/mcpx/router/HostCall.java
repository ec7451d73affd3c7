package dev.mcpx.router;

import dev.mcpx.client.Cancellation;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * One host request the router forwards. {@code hostProgress} receives ready-to-send
 * {@code notifications/progress} params for the host (its own token); {@code cancellation}
 * fires when the host cancels or goes away.
 */
public record HostCall(String method, ObjectNode params, Consumer<ObjectNode> hostProgress,
                       Cancellation cancellation) {
}

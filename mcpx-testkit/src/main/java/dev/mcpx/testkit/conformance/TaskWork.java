package dev.mcpx.testkit.conformance;

import tools.jackson.databind.node.ObjectNode;

/**
 * The body of a task (SEP-2663), run on its own virtual thread. Returns the tool result (a tool
 * error is a result with isError); throwing {@link RpcError.RpcException} fails the task.
 */
@FunctionalInterface
interface TaskWork {
    ObjectNode run(Task task) throws InterruptedException;
}

package dev.mcpx.router;

import dev.mcpx.client.Cancellation;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.pool.Upstream;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.TasksExtension;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Waits out a task for a host that cannot see one (a legacy host: the extension is modern-only).
 * The gateway never opts in for such a host, but an upstream may still hand back a task
 * unsolicited; rather than leak a CreateTaskResult, mcpx polls {@code tasks/get} (declaring the
 * extension for those requests only) and answers the host with the task's own outcome. A host
 * that cancels or a task that outlives the upstream's request timeout gets the task cancelled.
 */
final class TaskWait {

    private static final Logger LOG = LoggerFactory.getLogger(TaskWait.class);
    private static final Duration MIN_POLL = Duration.ofMillis(50);
    private static final Duration MAX_POLL = Duration.ofSeconds(5);
    private static final Duration CANCEL_CHECK = Duration.ofMillis(100);

    private TaskWait() {
    }

    /** The tool result the task settles with; its failure as the JSON-RPC error it carries. */
    static JsonNode outcome(Upstream upstream, ObjectNode created, Cancellation cancellation) {
        String taskId = Json.text(created, TasksExtension.TASK_ID);
        if (taskId == null) {
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.INTERNAL_ERROR,
                    "upstream \"" + upstream.name() + "\" returned a task without a taskId"));
        }
        Duration timeout = upstream.config().requestTimeout();
        long deadline = System.nanoTime() + timeout.toNanos();
        ObjectNode declared = Json.object();
        declared.putObject("extensions").putObject(TasksExtension.ID);
        RequestOptions polling = RequestOptions.defaults().withCancellation(cancellation).withClientCapabilities(declared);
        JsonNode task = created;
        try {
            while (true) {
                switch (Json.text(task, "status") == null ? "" : Json.text(task, "status")) {
                    case "completed" -> {
                        return task.get("result") instanceof ObjectNode result ? result : Json.object();
                    }
                    case "failed" -> throw new McpErrorException(failure(task.get("error")));
                    case "cancelled" -> throw new McpErrorException(JsonRpcError.of(ErrorCodes.INTERNAL_ERROR,
                            "upstream \"" + upstream.name() + "\" cancelled task " + taskId));
                    case "input_required" -> {
                        cancel(upstream, taskId, declared);
                        throw new McpErrorException(JsonRpcError.of(ErrorCodes.INTERNAL_ERROR, "upstream \""
                                + upstream.name() + "\" task " + taskId + " needs input mcpx cannot ask this host for"));
                    }
                    default -> {
                        if (System.nanoTime() - deadline > 0) {
                            throw new RequestTimeoutException(Methods.TOOLS_CALL, timeout);
                        }
                        sleep(pollInterval(task), cancellation);
                        task = upstream.request(Methods.TASKS_GET, Json.object().put(TasksExtension.TASK_ID, taskId), polling);
                    }
                }
            }
        } catch (RequestCancelledException | RequestTimeoutException e) {
            cancel(upstream, taskId, declared);
            throw e;
        }
    }

    private static Duration pollInterval(JsonNode task) {
        JsonNode interval = task.get("pollIntervalMs");
        Duration asked = interval != null && interval.canConvertToLong() ? Duration.ofMillis(interval.asLong()) : MAX_POLL;
        return asked.compareTo(MIN_POLL) < 0 ? MIN_POLL : asked.compareTo(MAX_POLL) > 0 ? MAX_POLL : asked;
    }

    private static void sleep(Duration interval, Cancellation cancellation) {
        long wakeAt = System.nanoTime() + interval.toNanos();
        while (System.nanoTime() - wakeAt < 0) {
            if (cancellation != null && cancellation.isCancelled()) {
                throw new RequestCancelledException(cancellation.reason());
            }
            try {
                Thread.sleep(Math.max(1, Math.min(CANCEL_CHECK.toMillis(), (wakeAt - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RequestCancelledException("interrupted");
            }
        }
    }

    private static JsonRpcError failure(JsonNode error) {
        if (error instanceof ObjectNode fields && fields.path("code").canConvertToInt()) {
            return new JsonRpcError(fields.get("code").asInt(), Json.text(fields, "message"), fields.get("data"));
        }
        return JsonRpcError.of(ErrorCodes.INTERNAL_ERROR, "the upstream's task failed");
    }

    /** Best effort: the host has its answer either way. */
    private static void cancel(Upstream upstream, String taskId, ObjectNode declared) {
        try {
            upstream.request(Methods.TASKS_CANCEL, Json.object().put(TasksExtension.TASK_ID, taskId),
                    RequestOptions.defaults().withClientCapabilities(declared));
        } catch (McpException e) {
            LOG.debug("{}: could not cancel task {}: {}", upstream.name(), taskId, e.getMessage());
        }
    }
}

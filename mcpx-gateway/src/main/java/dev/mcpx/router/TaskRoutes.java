package dev.mcpx.router;

import dev.mcpx.catalogue.Route;
import dev.mcpx.pool.Pool;
import dev.mcpx.pool.Upstream;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.TasksExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tasks extension through the gateway: mcpx runs no tasks, it passes each one through to the
 * upstream that created it. Task ids are rewritten on the way to the host ({@link TaskIds}) and
 * back on the way to the upstream; everything else in the task's results passes unchanged. The
 * extension is modern-only: a legacy host never opts in, so it never meets a task.
 */
final class TaskRoutes {

    private final Pool pool;

    TaskRoutes(Pool pool) {
        this.pool = pool;
    }

    /** Whether any upstream that is up offers the extension, so hosts may be offered it too. */
    boolean offered() {
        return pool.upstreams().stream().anyMatch(upstream -> upstream.offersExtension(TasksExtension.ID));
    }

    /**
     * The upstream that created the task a {@code tasks/*} request names, with the request's
     * {@code taskId} put back to that upstream's own.
     */
    Route route(HostCall call, ObjectNode upstreamRequest) {
        if (call.hostEra() == Era.LEGACY) {
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.METHOD_NOT_FOUND, "Method not found: "
                    + call.method() + " belongs to the " + TasksExtension.ID + " extension of 2026-07-28"));
        }
        if (!TasksExtension.declaredIn(call.hostCapabilities())) {
            throw TasksExtension.notDeclared(call.method());
        }
        JsonNode id = upstreamRequest.get(TasksExtension.TASK_ID);
        if (id == null || !id.isString()) {
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, "params.taskId must be a string"));
        }
        TaskIds.UpstreamTask task = TaskIds.fromHost(id.asString())
                .filter(known -> pool.upstream(known.upstream()).isPresent())
                .orElseThrow(() -> unknownTask(id.asString()));
        upstreamRequest.put(TasksExtension.TASK_ID, task.taskId());
        return new Route(task.upstream(), task.taskId());
    }

    /** A task handle (CreateTaskResult, DetailedTask) carries the id the host will name it by. */
    static JsonNode hostResult(String method, Upstream upstream, JsonNode upstreamResult) {
        boolean handle = Methods.TASKS_GET.equals(method) || TasksExtension.isCreateTaskResult(upstreamResult);
        if (handle && upstreamResult instanceof ObjectNode result && result.get(TasksExtension.TASK_ID) instanceof JsonNode id
                && id.isString()) {
            result.put(TasksExtension.TASK_ID, TaskIds.toHost(upstream.name(), id.asString()));
        }
        return upstreamResult;
    }

    /** An upstream's error that names the task (its unknown-task -32602) names it as the host knows it. */
    static McpErrorException hostError(Upstream upstream, McpErrorException upstreamError) {
        JsonNode data = upstreamError.error().data();
        if (data instanceof ObjectNode fields && fields.get(TasksExtension.TASK_ID) instanceof JsonNode id && id.isString()) {
            ObjectNode hostData = fields.deepCopy().put(TasksExtension.TASK_ID, TaskIds.toHost(upstream.name(), id.asString()));
            return new McpErrorException(new JsonRpcError(upstreamError.code(), upstreamError.error().message(), hostData));
        }
        return upstreamError;
    }

    private static McpErrorException unknownTask(String hostTaskId) {
        return new McpErrorException(new JsonRpcError(ErrorCodes.INVALID_PARAMS, "Unknown taskId: " + hostTaskId,
                Json.object().put(TasksExtension.TASK_ID, hostTaskId)));
    }
}

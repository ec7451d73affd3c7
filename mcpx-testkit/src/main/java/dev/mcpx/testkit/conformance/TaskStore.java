package dev.mcpx.testkit.conformance;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.node.ObjectNode;

/** The tasks of the tasks extension and its methods tasks/get, tasks/update, tasks/cancel. */
final class TaskStore {

    static final String EXTENSION = "io.modelcontextprotocol/tasks";

    private final Map<String, Task> tasks = new ConcurrentHashMap<>();

    /** Registers before returning, so a tasks/get right after the CreateTaskResult finds the task. */
    ObjectNode start(TaskWork work) {
        Task task = new Task();
        tasks.put(task.id(), task);
        task.start(work);
        return task.createResult();
    }

    ObjectNode handle(String method, ObjectNode params, ObjectNode clientCapabilities) {
        if (!declaresExtension(clientCapabilities)) {
            throw missingExtension(method + " needs the " + EXTENSION + " extension in clientCapabilities");
        }
        String taskId = Json.string(params, "taskId");
        Task task = taskId == null ? null : tasks.get(taskId);
        if (task == null) {
            ObjectNode data = Json.object();
            if (taskId != null) {
                data.put("taskId", taskId);
            }
            throw new RpcError(RpcError.INVALID_PARAMS, "Unknown taskId: " + taskId, data).exception();
        }
        switch (method) {
            case "tasks/get":
                return task.detailed();
            case "tasks/update":
                task.update(Json.objectOrEmpty(params.get("inputResponses")));
                return Json.object();
            default:
                task.cancel();
                return Json.object();
        }
    }

    static boolean declaresExtension(ObjectNode clientCapabilities) {
        return clientCapabilities.path("extensions").get(EXTENSION) != null;
    }

    /** -32021 whose requiredCapabilities names the tasks extension. */
    static RpcError.RpcException missingExtension(String message) {
        ObjectNode data = Json.object();
        data.putObject("requiredCapabilities").putObject("extensions").putObject(EXTENSION);
        return new RpcError(RpcError.MISSING_CLIENT_CAPABILITY, message, data).exception();
    }
}

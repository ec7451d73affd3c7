package dev.mcpx.protocol;

import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tasks extension ({@code io.modelcontextprotocol/tasks}, SEP-2663), modern era only: the
 * few parts mcpx acts on. A {@code tools/call} may answer with a flat CreateTaskResult
 * ({@code resultType: "task"}, {@code taskId} at the top); the task is then read, fed and
 * stopped with {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel}, each naming it by
 * {@code params.taskId} (also mirrored into the {@code Mcp-Name} header).
 */
public final class TasksExtension {

    public static final String ID = "io.modelcontextprotocol/tasks";
    public static final String TASK_ID = "taskId";
    /** The {@code resultType} of a CreateTaskResult. */
    public static final String RESULT_TYPE = "task";
    public static final Set<String> METHODS = Set.of(Methods.TASKS_GET, Methods.TASKS_UPDATE, Methods.TASKS_CANCEL);

    private TasksExtension() {
    }

    /** Whether client or server {@code capabilities} declare the extension under {@code extensions}. */
    public static boolean declaredIn(JsonNode capabilities) {
        return capabilities != null && capabilities.path("extensions").get(ID) instanceof ObjectNode;
    }

    /** A CreateTaskResult; a result without {@code resultType} is complete, never a task. */
    public static boolean isCreateTaskResult(JsonNode result) {
        return RESULT_TYPE.equals(Json.text(result, "resultType"));
    }

    /** -32021 for a caller that did not declare the extension, naming it in {@code data.requiredCapabilities}. */
    public static McpErrorException notDeclared(String method) {
        ObjectNode data = Json.object();
        data.putObject("requiredCapabilities").putObject("extensions").putObject(ID);
        return new McpErrorException(new JsonRpcError(ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
                method + " needs the " + ID + " extension in the request's clientCapabilities", data));
    }
}

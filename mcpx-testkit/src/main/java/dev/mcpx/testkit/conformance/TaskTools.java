package dev.mcpx.testkit.conformance;

import static dev.mcpx.testkit.conformance.InputRequiredTools.text;

import tools.jackson.databind.node.ObjectNode;

/**
 * The tasks-extension fixtures (SEP-2663). A task-supporting tool becomes a task only when the
 * request's clientCapabilities declare the extension; a task-required one fails with -32021
 * without it.
 */
final class TaskTools {

    private static final long MAX_SYNC_SECONDS = 10;

    private TaskTools() {
    }

    /** Sync only, even when a legacy {@code task} hint is sent. */
    static Outcome greet(CallContext call) {
        String name = call.argument("name");
        return text("Hello, " + (name == null ? "World" : name) + "!");
    }

    /** Sleeps {@code seconds}; a task when the extension is declared, otherwise a plain call. */
    static Outcome slowCompute(CallContext call) throws InterruptedException {
        long seconds = Math.max(0, call.arguments().path("seconds").asLong(0));
        String label = call.argument("label");
        String done = "Computed " + (label == null ? "result" : label) + " after " + seconds + "s";
        if (!call.clientHasExtension(TaskStore.EXTENSION)) {
            Thread.sleep(Math.min(seconds, MAX_SYNC_SECONDS) * 1000);
            return text(done);
        }
        return new Outcome.StartTask(task -> {
            Thread.sleep(seconds * 1000);
            return Json.textResult(done);
        });
    }

    /** Task required: after about a second, a tool error (completed with isError, not failed). */
    static Outcome failingJob(CallContext call) {
        requireExtension(call);
        return new Outcome.StartTask(task -> {
            Thread.sleep(1000);
            return Json.textResult("The job failed: simulated tool error").put("isError", true);
        });
    }

    /** A task that fails at the protocol level: status failed with an inlined error. */
    static Outcome protocolErrorJob(CallContext call) {
        requireExtension(call);
        return new Outcome.StartTask(task -> {
            Thread.sleep(200);
            throw RpcError.of(RpcError.INTERNAL_ERROR, "Simulated protocol-level failure").exception();
        });
    }

    /** A task that waits for one confirmation through tasks/update. */
    static Outcome confirmDelete(CallContext call) {
        requireExtension(call);
        String filename = call.argument("filename");
        return new Outcome.StartTask(task -> {
            ObjectNode answers = task.ask(InputRequests.of("confirm", InputRequests.elicitation(
                    "Delete " + filename + "?", "confirm", InputRequests.type("boolean"))));
            ObjectNode content = InputRequests.acceptedContent((ObjectNode) answers.get("confirm"), "confirm");
            boolean confirmed = content != null && content.path("confirm").asBoolean(false);
            return Json.textResult((confirmed ? "Deleted " : "Kept ") + filename);
        });
    }

    /** A task with two input requests pending at once, answerable one at a time. */
    static Outcome multiInput(CallContext call) {
        requireExtension(call);
        return new Outcome.StartTask(task -> {
            ObjectNode answers = task.ask(InputRequests.of(
                    "name", InputRequests.elicitation("What is your name?", "name", InputRequests.type("string")),
                    "confirm", InputRequests.elicitation("Proceed?", "confirm", InputRequests.type("boolean"))));
            return Json.textResult("Received " + Json.write(answers));
        });
    }

    /** MRTR first (synchronous), then a task on the final round; the task's result names the user. */
    static Outcome mrtrThenTask(CallContext call) {
        requireExtension(call);
        ObjectNode answer = InputRequests.response(InputRequests.responses(call), "user_name");
        if (answer == null) {
            return new Outcome.InputRequired(InputRequests.of("user_name",
                    InputRequests.elicitation("What is your name?", "name", InputRequests.type("string"))), null);
        }
        String name = Json.string(InputRequests.acceptedContent(answer, "user_name"), "name");
        return new Outcome.StartTask(task -> {
            Thread.sleep(200);
            return Json.textResult("Hello, " + (name == null ? "anonymous" : name) + "! (from a task)");
        });
    }

    private static void requireExtension(CallContext call) {
        if (!call.clientHasExtension(TaskStore.EXTENSION)) {
            throw TaskStore.missingExtension(call.name() + " runs only as a task: declare the "
                    + TaskStore.EXTENSION + " extension in clientCapabilities");
        }
    }
}

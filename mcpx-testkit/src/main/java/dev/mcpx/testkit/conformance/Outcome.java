package dev.mcpx.testkit.conformance;

import tools.jackson.databind.node.ObjectNode;

/** What a fixture answers: a final result, (MRTR) the input it needs first, or (tasks extension) a task to run. */
sealed interface Outcome {

    record Complete(ObjectNode result) implements Outcome {
    }

    /** inputRequests maps server-chosen keys to {method, params}; requestState may be null. */
    record InputRequired(ObjectNode inputRequests, String requestState) implements Outcome {
    }

    /** SEP-2663: the call becomes a task; only valid when the client declared the tasks extension. */
    record StartTask(TaskWork work) implements Outcome {
    }
}

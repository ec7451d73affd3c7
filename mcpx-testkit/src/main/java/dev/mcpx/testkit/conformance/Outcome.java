package dev.mcpx.testkit.conformance;

import tools.jackson.databind.node.ObjectNode;

/** What a fixture answers: a final result, or (MRTR) the input it needs first. */
sealed interface Outcome {

    record Complete(ObjectNode result) implements Outcome {
    }

    /** inputRequests maps server-chosen keys to {method, params}; requestState may be null. */
    record InputRequired(ObjectNode inputRequests, String requestState) implements Outcome {
    }
}

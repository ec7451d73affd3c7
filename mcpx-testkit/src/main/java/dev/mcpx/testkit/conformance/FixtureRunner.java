package dev.mcpx.testkit.conformance;

import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Turns a fixture's outcome into the era's answer: an input-required result, or a played-out exchange. */
final class FixtureRunner {

    private static final int MAX_ROUNDS = 8;

    private FixtureRunner() {
    }

    /** 2026-07-28: one round; input needs go back to the client as an InputRequiredResult. */
    static ObjectNode runModern(Fixture fixture, CallContext call, TaskStore tasks) throws InterruptedException {
        Outcome outcome = fixture.call(call);
        if (outcome instanceof Outcome.StartTask task) {
            return tasks.start(task.work());
        }
        if (outcome instanceof Outcome.InputRequired needed) {
            requireCapabilities(needed, call);
            ObjectNode result = Json.object().put("resultType", "input_required");
            result.set("inputRequests", needed.inputRequests());
            if (needed.requestState() != null) {
                result.put("requestState", needed.requestState());
            }
            return result;
        }
        return ((Outcome.Complete) outcome).result();
    }

    /** 2025-11-25: each round's input requests are sent to the client on the call's SSE stream. */
    static ObjectNode runLegacy(Fixture fixture, CallContext call) throws InterruptedException {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Outcome outcome = fixture.call(call);
            if (outcome instanceof Outcome.Complete complete) {
                return complete.result();
            }
            if (outcome instanceof Outcome.StartTask) {
                throw RpcError.of(RpcError.INTERNAL_ERROR, "tasks exist only in 2026-07-28").exception();
            }
            Outcome.InputRequired needed = (Outcome.InputRequired) outcome;
            requireCapabilities(needed, call);
            ObjectNode responses = Json.object();
            for (Map.Entry<String, JsonNode> request : needed.inputRequests().properties()) {
                String method = request.getValue().get("method").asString();
                JsonNode params = request.getValue().get("params");
                responses.set(request.getKey(), call.exchange().session().ask(call.exchange(), method, params));
            }
            call = call.withInput(responses, needed.requestState());
        }
        throw RpcError.of(RpcError.INTERNAL_ERROR, "fixture asked for input more than " + MAX_ROUNDS + " times")
                .exception();
    }

    /** A server must not ask for what the client did not declare: -32021 names the missing capabilities. */
    private static void requireCapabilities(Outcome.InputRequired needed, CallContext call) {
        ObjectNode missing = Json.object();
        for (Map.Entry<String, JsonNode> request : needed.inputRequests().properties()) {
            String capability = InputRequests.capabilityFor(request.getValue().get("method").asString());
            if (!call.clientCan(capability)) {
                missing.putObject(capability);
            }
        }
        if (!missing.isEmpty()) {
            ObjectNode data = Json.object();
            data.set("requiredCapabilities", missing);
            throw new RpcError(RpcError.MISSING_CLIENT_CAPABILITY,
                    "Missing required client capability: " + String.join(", ", missing.propertyNames()), data)
                    .exception();
        }
    }
}

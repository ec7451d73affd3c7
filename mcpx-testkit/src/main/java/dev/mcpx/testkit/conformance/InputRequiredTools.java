package dev.mcpx.testkit.conformance;

import static dev.mcpx.testkit.conformance.InputRequests.acceptedContent;
import static dev.mcpx.testkit.conformance.InputRequests.elicitation;
import static dev.mcpx.testkit.conformance.InputRequests.listRoots;
import static dev.mcpx.testkit.conformance.InputRequests.response;
import static dev.mcpx.testkit.conformance.InputRequests.responses;
import static dev.mcpx.testkit.conformance.InputRequests.rootUris;
import static dev.mcpx.testkit.conformance.InputRequests.sampledText;
import static dev.mcpx.testkit.conformance.InputRequests.sampling;
import static dev.mcpx.testkit.conformance.InputRequests.type;

import tools.jackson.databind.node.ObjectNode;

/**
 * The SEP-2322 (MRTR) fixtures {@code test_input_required_result_*}. Each is written once as
 * rounds of "input needed / complete"; the modern era returns the rounds to the client, the
 * legacy era plays them out as server-to-client requests on the response stream.
 */
final class InputRequiredTools {

    static final String PREFIX = "test_input_required_result_";
    static final String PROMPT = PREFIX + "prompt";

    private final RequestStates states;

    InputRequiredTools(RequestStates states) {
        this.states = states;
    }

    static Outcome nameByElicitation(CallContext call) {
        ObjectNode answer = response(responses(call), "user_name");
        if (answer == null) {
            return new Outcome.InputRequired(InputRequests.of("user_name", askName("What is your name?")), null);
        }
        ObjectNode content = acceptedContent(answer, "user_name");
        String name = Json.string(content, "name");
        if (content != null && name == null) {
            return new Outcome.InputRequired(InputRequests.of("user_name", askName("What is your name?")), null);
        }
        return text(content == null ? "No name given." : "Hello, " + name + "!");
    }

    static Outcome capitalBySampling(CallContext call) {
        ObjectNode answer = response(responses(call), "capital_question");
        if (answer == null) {
            return new Outcome.InputRequired(
                    InputRequests.of("capital_question", InputRequests.sampling("What is the capital of France?", 100)),
                    null);
        }
        return text("Sampling response: " + sampledText(answer, "capital_question"));
    }

    static Outcome rootsByListRoots(CallContext call) {
        ObjectNode answer = response(responses(call), "client_roots");
        if (answer == null) {
            return new Outcome.InputRequired(InputRequests.of("client_roots", listRoots()), null);
        }
        return text("Client roots: " + rootUris(answer, "client_roots"));
    }

    /** Needs the echoed requestState; the final text says "state-ok" once it verified. */
    Outcome requestState(CallContext call) {
        return confirmWithState(call, "state-ok: the echoed requestState verified");
    }

    /** Same flow; a requestState altered by the client fails with -32602. */
    Outcome tamperedState(CallContext call) {
        return confirmWithState(call, "state verified");
    }

    Outcome multipleInputs(CallContext call) {
        ObjectNode all = InputRequests.of(
                "user_name", askName("What is your name?"),
                "greeting", sampling("Generate a greeting", 50),
                "client_roots", listRoots());
        ObjectNode responses = responses(call);
        if (call.requestState() == null || responses == null) {
            return new Outcome.InputRequired(all, states.sign(call.name(), Json.object().put("round", 1)));
        }
        states.verify(call.name(), call.requestState());
        ObjectNode missing = Json.object();
        all.properties().forEach(entry -> {
            if (response(responses, entry.getKey()) == null) {
                missing.set(entry.getKey(), entry.getValue());
            }
        });
        if (!missing.isEmpty()) {
            return new Outcome.InputRequired(missing, call.requestState());
        }
        ObjectNode person = acceptedContent(response(responses, "user_name"), "user_name");
        return text("name=" + Json.string(person, "name")
                + "; greeting=" + sampledText(response(responses, "greeting"), "greeting")
                + "; roots=" + rootUris(response(responses, "client_roots"), "client_roots"));
    }

    /** Three rounds: name, then colour, then the result; the state changes every round. */
    Outcome multiRound(CallContext call) {
        ObjectNode stepOne = InputRequests.of("step1", elicitation("Step 1: What is your name?", "name", type("string")));
        if (call.requestState() == null) {
            return new Outcome.InputRequired(stepOne, states.sign(call.name(), Json.object().put("step", 1)));
        }
        ObjectNode state = states.verify(call.name(), call.requestState());
        ObjectNode responses = responses(call);
        if (state.path("step").asInt() == 1) {
            ObjectNode answer = response(responses, "step1");
            if (answer == null) {
                return new Outcome.InputRequired(stepOne, call.requestState());
            }
            String name = Json.string(acceptedContent(answer, "step1"), "name");
            ObjectNode next = Json.object().put("step", 2).put("name", name == null ? "anonymous" : name);
            return new Outcome.InputRequired(
                    InputRequests.of("step2",
                            elicitation("Step 2: What is your favorite color?", "color", type("string"))),
                    states.sign(call.name(), next));
        }
        ObjectNode answer = response(responses, "step2");
        if (answer == null) {
            return new Outcome.InputRequired(
                    InputRequests.of("step2",
                            elicitation("Step 2: What is your favorite color?", "color", type("string"))),
                    call.requestState());
        }
        String color = Json.string(acceptedContent(answer, "step2"), "color");
        return text(Json.string(state, "name") + "'s favorite color is " + (color == null ? "unknown" : color));
    }

    /** Asks only for what the request's clientCapabilities declare. */
    static Outcome capabilities(CallContext call) {
        ObjectNode responses = responses(call);
        if (responses != null) {
            return text("Received input for: " + String.join(", ", responses.propertyNames()));
        }
        ObjectNode requests = Json.object();
        if (call.clientCan("elicitation")) {
            requests.set("user_name", askName("What is your name?"));
        }
        if (call.clientCan("sampling")) {
            requests.set("greeting", sampling("Generate a greeting", 50));
        }
        if (call.clientCan("roots")) {
            requests.set("client_roots", listRoots());
        }
        if (requests.isEmpty()) {
            return text("The client declared none of elicitation, sampling or roots; nothing to ask.");
        }
        return new Outcome.InputRequired(requests, null);
    }

    /** prompts/get with MRTR: asks for the context, then completes a GetPromptResult. */
    static Outcome contextPrompt(CallContext call) {
        ObjectNode answer = response(responses(call), "user_context");
        if (answer == null) {
            return new Outcome.InputRequired(InputRequests.of("user_context",
                    elicitation("What context should the prompt use?", "context", type("string"))), null);
        }
        String context = Json.string(acceptedContent(answer, "user_context"), "context");
        return Prompts.complete(Prompts.userText("Answer using this context: " + (context == null ? "none" : context)));
    }

    private Outcome confirmWithState(CallContext call, String verified) {
        ObjectNode confirm = InputRequests.of("confirm", elicitation("Please confirm", "ok", type("boolean")));
        ObjectNode answer = response(responses(call), "confirm");
        if (call.requestState() == null || answer == null) {
            return new Outcome.InputRequired(confirm, states.sign(call.name(), Json.object().put("round", 1)));
        }
        states.verify(call.name(), call.requestState());
        ObjectNode content = acceptedContent(answer, "confirm");
        return text(verified + "; ok=" + (content == null ? "declined" : content.path("ok").asString()));
    }

    private static ObjectNode askName(String message) {
        return elicitation(message, "name", type("string"));
    }

    static Outcome text(String text) {
        return new Outcome.Complete(Json.textResult(text));
    }
}

package dev.mcpx.testkit.conformance;

import static dev.mcpx.testkit.conformance.InputRequests.response;
import static dev.mcpx.testkit.conformance.InputRequests.responses;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The 2025-era fixtures that ask the client for something (sampling, elicitation). Written as
 * MRTR rounds too, so in the legacy era they become server-to-client requests and in the
 * modern era input-required results.
 */
final class ClientInputTools {

    private ClientInputTools() {
    }

    static Outcome sampling(CallContext call) {
        ObjectNode answer = response(responses(call), "sampling");
        if (answer == null) {
            String prompt = call.argument("prompt");
            return new Outcome.InputRequired(InputRequests.of("sampling",
                    InputRequests.sampling(prompt == null ? "Say hello" : prompt, 100)), null);
        }
        return InputRequiredTools.text("LLM response: " + InputRequests.sampledText(answer, "sampling"));
    }

    static Outcome elicitation(CallContext call) {
        ObjectNode answer = response(responses(call), "elicitation");
        if (answer == null) {
            String message = call.argument("message");
            return new Outcome.InputRequired(InputRequests.of("elicitation", InputRequests.elicitation(
                    message == null ? "Please provide your information" : message,
                    "username", described("string", "User's response"),
                    "email", described("string", "User's email address"))), null);
        }
        return answered("User response", answer);
    }

    /** SEP-1034: a default value for every primitive type. */
    static Outcome defaults(CallContext call) {
        ObjectNode answer = response(responses(call), "defaults");
        if (answer == null) {
            ObjectNode schema = Json.object().put("type", "object");
            ObjectNode props = schema.putObject("properties");
            props.set("name", described("string", "User name").put("default", "John Doe"));
            props.set("age", described("integer", "User age").put("default", 30));
            props.set("score", described("number", "User score").put("default", 95.5));
            ObjectNode status = described("string", "User status");
            status.putArray("enum").add("active").add("inactive").add("pending");
            props.set("status", status.put("default", "active"));
            props.set("verified", described("boolean", "Verification status").put("default", true));
            schema.putArray("required");
            return new Outcome.InputRequired(InputRequests.of("defaults", InputRequests.elicitation(
                    "Please review and update the form fields with defaults", schema)), null);
        }
        return answered("Elicitation completed", answer);
    }

    /** SEP-1330: the five enum shapes (untitled, titled, legacy enumNames, and both multi-selects). */
    static Outcome enums(CallContext call) {
        ObjectNode answer = response(responses(call), "enums");
        if (answer == null) {
            ObjectNode schema = Json.object().put("type", "object");
            ObjectNode props = schema.putObject("properties");
            ObjectNode untitled = described("string", "Select one option");
            untitled.putArray("enum").add("option1").add("option2").add("option3");
            props.set("untitledSingle", untitled);
            ObjectNode titled = described("string", "Select one option with titles");
            titled.set("oneOf", titledOptions("value", "First Option", "Second Option", "Third Option"));
            props.set("titledSingle", titled);
            ObjectNode legacy = described("string", "Select one option (legacy)");
            legacy.putArray("enum").add("opt1").add("opt2").add("opt3");
            legacy.putArray("enumNames").add("Option One").add("Option Two").add("Option Three");
            props.set("legacyEnum", legacy);
            ObjectNode untitledMulti = described("array", "Select multiple options").put("minItems", 1).put("maxItems", 3);
            ObjectNode items = untitledMulti.putObject("items").put("type", "string");
            items.putArray("enum").add("option1").add("option2").add("option3");
            props.set("untitledMulti", untitledMulti);
            ObjectNode titledMulti = described("array", "Select multiple options with titles")
                    .put("minItems", 1).put("maxItems", 3);
            titledMulti.putObject("items").set("anyOf",
                    titledOptions("value", "First Choice", "Second Choice", "Third Choice"));
            props.set("titledMulti", titledMulti);
            schema.putArray("required");
            return new Outcome.InputRequired(InputRequests.of("enums", InputRequests.elicitation(
                    "Please select options from the enum fields", schema)), null);
        }
        return answered("Elicitation completed", answer);
    }

    private static Outcome answered(String label, ObjectNode elicitResult) {
        ObjectNode content = InputRequests.acceptedContent(elicitResult, "elicitation");
        return InputRequiredTools.text(label + ": action=" + Json.string(elicitResult, "action")
                + ", content=" + Json.write(content == null ? Json.object() : content));
    }

    private static ObjectNode described(String type, String description) {
        return Json.object().put("type", type).put("description", description);
    }

    private static ArrayNode titledOptions(String constPrefix, String... titles) {
        ArrayNode options = Json.array();
        for (int i = 0; i < titles.length; i++) {
            options.addObject().put("const", constPrefix + (i + 1)).put("title", titles[i]);
        }
        return options;
    }
}

package dev.mcpx.testkit.conformance;

import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The fixture prompts, including one that needs MRTR input and one that comes and goes. */
final class Prompts {

    static final String DYNAMIC = "test_dynamic_prompt";

    private record PromptDef(ObjectNode definition, Fixture fixture) {
    }

    private final Map<String, PromptDef> prompts = new LinkedHashMap<>();
    private final ChangeFeed changes;

    Prompts(ChangeFeed changes) {
        this.changes = changes;
        add(prompt("test_simple_prompt", "A simple prompt without arguments"),
                call -> complete(userText("This is a simple prompt for testing.")));
        add(prompt("test_prompt_with_arguments", "A prompt with required arguments",
                "arg1", "First test argument", "arg2", "Second test argument"),
                call -> complete(userText("Prompt with arguments: arg1='" + required(call, "arg1")
                        + "', arg2='" + required(call, "arg2") + "'")));
        add(prompt("test_prompt_with_embedded_resource", "A prompt that includes an embedded resource",
                "resourceUri", "URI of the resource to embed"),
                Prompts::embeddedResource);
        add(prompt("test_prompt_with_image", "A prompt that includes image content"), call -> {
            ObjectNode image = Json.object().put("type", "image").put("data", Media.PNG_BASE64).put("mimeType", "image/png");
            return complete(message(image), userText("Please analyze the image above."));
        });
        add(prompt(InputRequiredTools.PROMPT, "A prompt that asks the client for context first (MRTR)"),
                InputRequiredTools::contextPrompt);
        add(prompt(DYNAMIC, "A prompt that test_trigger_prompt_change adds and removes"),
                call -> complete(userText("This prompt was added at run time.")));
    }

    ObjectNode list() {
        ObjectNode result = Json.object();
        ArrayNode list = result.putArray("prompts");
        prompts.forEach((name, prompt) -> {
            if (!name.equals(DYNAMIC) || changes.hasDynamicPrompt()) {
                list.add(prompt.definition());
            }
        });
        return result;
    }

    Fixture fixture(String name) {
        PromptDef prompt = prompts.get(name);
        if (prompt == null || (name.equals(DYNAMIC) && !changes.hasDynamicPrompt())) {
            throw RpcError.of(RpcError.INVALID_PARAMS, "Unknown prompt: " + name).exception();
        }
        return prompt.fixture();
    }

    private void add(ObjectNode definition, Fixture fixture) {
        prompts.put(definition.get("name").asString(), new PromptDef(definition, fixture));
    }

    private static Outcome embeddedResource(CallContext call) {
        ObjectNode resource = Json.object().put("type", "resource");
        resource.putObject("resource").put("uri", required(call, "resourceUri")).put("mimeType", "text/plain")
                .put("text", "Embedded resource content for testing.");
        return complete(message(resource), userText("Please process the embedded resource above."));
    }

    private static String required(CallContext call, String argument) {
        String value = call.argument(argument);
        if (value == null) {
            throw RpcError.of(RpcError.INVALID_PARAMS, "Missing required argument: " + argument).exception();
        }
        return value;
    }

    static Outcome complete(ObjectNode... messages) {
        ObjectNode result = Json.object();
        ArrayNode list = result.putArray("messages");
        for (ObjectNode message : messages) {
            list.add(message);
        }
        return new Outcome.Complete(result);
    }

    static ObjectNode userText(String text) {
        return message(Json.text(text));
    }

    private static ObjectNode message(ObjectNode content) {
        ObjectNode message = Json.object().put("role", "user");
        message.set("content", content);
        return message;
    }

    /** A prompt definition; arguments come as name, description pairs and are all required. */
    private static ObjectNode prompt(String name, String description, String... arguments) {
        ObjectNode prompt = Json.object().put("name", name).put("description", description);
        if (arguments.length > 0) {
            ArrayNode list = prompt.putArray("arguments");
            for (int i = 0; i < arguments.length; i += 2) {
                list.addObject().put("name", arguments[i]).put("description", arguments[i + 1]).put("required", true);
            }
        }
        return prompt;
    }
}

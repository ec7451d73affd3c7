package dev.mcpx.testkit.conformance;

import static dev.mcpx.testkit.conformance.InputRequiredTools.text;

import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Every fixture tool the conformance server scenarios call, in a stable order. */
final class Tools {

    static final String DYNAMIC = "test_dynamic_tool";

    private record ToolDef(ObjectNode definition, Fixture fixture) {
    }

    private final Map<String, ToolDef> tools = new LinkedHashMap<>();
    private final ChangeFeed changes;

    Tools(ChangeFeed changes, RequestStates states) {
        this.changes = changes;
        // First on purpose: http-header-validation calls tools[0] with no arguments and expects success.
        add("test_simple_text", "Returns a simple text block", noArguments(),
                call -> text("This is a simple text response for testing."));
        add("test_image_content", "Returns an image block", noArguments(), call -> content(
                Json.object().put("type", "image").put("data", Media.PNG_BASE64).put("mimeType", "image/png")));
        add("test_audio_content", "Returns an audio block", noArguments(), call -> content(
                Json.object().put("type", "audio").put("data", Media.WAV_BASE64).put("mimeType", "audio/wav")));
        add("test_embedded_resource", "Returns an embedded resource block", noArguments(), call -> content(
                embedded("test://embedded-resource", "text/plain", "This is an embedded resource content.")));
        add("test_multiple_content_types", "Returns text, image and resource blocks", noArguments(), call -> content(
                Json.text("Multiple content types test:"),
                Json.object().put("type", "image").put("data", Media.PNG_BASE64).put("mimeType", "image/png"),
                embedded("test://mixed-content-resource", "application/json",
                        Json.write(Json.object().put("test", "data").put("value", 123)))));
        add("test_tool_with_logging", "Sends three info log messages while it runs", noArguments(), Tools::logging);
        add("test_logging_tool", "Same as test_tool_with_logging (the name server-stateless probes)", noArguments(),
                Tools::logging);
        add("test_tool_with_progress", "Reports progress 0, 50, 100 of 100 when given a progressToken",
                noArguments(), Tools::progress);
        add("test_error_handling", "Always fails, as a tool error (isError: true)", noArguments(), call -> {
            ObjectNode result = Json.textResult("This tool intentionally returns an error for testing");
            return new Outcome.Complete(result.put("isError", true));
        });
        add("test_reconnection", "Legacy: closes its SSE stream mid-call; the result follows on resumption",
                noArguments(), Tools::reconnection);
        add("test_sampling", "Asks the client for an LLM completion of the prompt",
                stringArguments("prompt", "The prompt to send to the LLM"), ClientInputTools::sampling);
        add("test_elicitation", "Asks the user for a username and an email",
                stringArguments("message", "The message to show the user"), ClientInputTools::elicitation);
        add("test_elicitation_sep1034_defaults", "Elicitation whose fields all have defaults (SEP-1034)",
                noArguments(), ClientInputTools::defaults);
        add("test_elicitation_sep1330_enums", "Elicitation with the five enum shapes (SEP-1330)",
                noArguments(), ClientInputTools::enums);
        add("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", JsonSchemas.draft202012(),
                call -> text("JSON Schema 2020-12 tool called with: " + Json.write(call.arguments())));
        add("test_custom_header", "Mirrors its region argument into the Mcp-Param-Region header (SEP-2243)",
                JsonSchemas.withHeaderParameter(), call -> text("region=" + call.argument("region")));
        add("test_missing_capability", "Needs sampling; without it the answer is -32021", noArguments(),
                call -> InputRequests.response(InputRequests.responses(call), "sample") == null
                        ? new Outcome.InputRequired(InputRequests.of("sample", InputRequests.sampling("Say hello", 20)),
                                null)
                        : text("Sampling response: " + InputRequests.sampledText(
                                InputRequests.response(InputRequests.responses(call), "sample"), "sample")));
        add("test_streaming_elicitation", "Asks for a name; never as a request on the response stream (2026)",
                noArguments(), InputRequiredTools::nameByElicitation);
        add("test_trigger_tool_change", "Adds or removes test_dynamic_tool and announces tools/list_changed",
                noArguments(), call -> text(DYNAMIC + (changes.toggleTool() ? " added" : " removed")));
        add("test_trigger_prompt_change", "Adds or removes test_dynamic_prompt and announces prompts/list_changed",
                noArguments(), call -> text(Prompts.DYNAMIC + (changes.togglePrompt() ? " added" : " removed")));
        add("test_trigger_resource_update", "Changes test://watched-resource and announces resources/updated",
                noArguments(), call -> text(Resources.WATCHED + " is now version " + changes.updateWatched()));
        InputRequiredTools mrtr = new InputRequiredTools(states);
        String prefix = InputRequiredTools.PREFIX;
        add(prefix + "elicitation", "MRTR: asks for a name", noArguments(), InputRequiredTools::nameByElicitation);
        add(prefix + "sampling", "MRTR: asks for a completion", noArguments(), InputRequiredTools::capitalBySampling);
        add(prefix + "list_roots", "MRTR: asks for the client's roots", noArguments(),
                InputRequiredTools::rootsByListRoots);
        add(prefix + "request_state", "MRTR: needs its requestState echoed", noArguments(), mrtr::requestState);
        add(prefix + "multiple_inputs", "MRTR: elicitation, sampling and roots at once", noArguments(),
                mrtr::multipleInputs);
        add(prefix + "multi_round", "MRTR: two rounds of input, new requestState each time", noArguments(),
                mrtr::multiRound);
        add(prefix + "tampered_state", "MRTR: rejects a requestState that fails its HMAC", noArguments(),
                mrtr::tamperedState);
        add(prefix + "capabilities", "MRTR: asks only for what clientCapabilities declare", noArguments(),
                InputRequiredTools::capabilities);
        add("greet", "Tasks extension: sync only, says hello to name", stringArguments("name", "Who to greet"),
                TaskTools::greet);
        add("slow_compute", "Tasks extension: sleeps seconds; a task when the client declares the extension",
                JsonSchemas.slowCompute(), TaskTools::slowCompute);
        add("failing_job", "Tasks extension: task required; ends in a tool error", noArguments(),
                TaskTools::failingJob);
        add("protocol_error_job", "Tasks extension: task required; ends in a protocol error", noArguments(),
                TaskTools::protocolErrorJob);
        add("confirm_delete", "Tasks extension: task that waits for a confirmation via tasks/update",
                stringArguments("filename", "The file to delete"), TaskTools::confirmDelete);
        add("multi_input", "Tasks extension: task with two input requests pending at once", noArguments(),
                TaskTools::multiInput);
        add("test_tool_with_task", "Tasks extension: MRTR round for a name, then a task", noArguments(),
                TaskTools::mrtrThenTask);
        add(DYNAMIC, "Present only after an odd number of test_trigger_tool_change calls", noArguments(),
                call -> text("The dynamic tool ran."));
    }

    ObjectNode list() {
        ObjectNode result = Json.object();
        ArrayNode list = result.putArray("tools");
        tools.forEach((name, tool) -> {
            if (!name.equals(DYNAMIC) || changes.hasDynamicTool()) {
                list.add(tool.definition());
            }
        });
        return result;
    }

    /** The inputSchema of a tool (for Mcp-Param header checks), or null when there is no such tool. */
    ObjectNode inputSchema(String name) {
        ToolDef tool = tools.get(name);
        return tool == null ? null : (ObjectNode) tool.definition().get("inputSchema");
    }

    Fixture fixture(String name) {
        ToolDef tool = tools.get(name);
        if (tool == null || (name.equals(DYNAMIC) && !changes.hasDynamicTool())) {
            throw RpcError.of(RpcError.INVALID_PARAMS, "Unknown tool: " + name).exception();
        }
        return tool.fixture();
    }

    private void add(String name, String description, ObjectNode inputSchema, Fixture fixture) {
        ObjectNode definition = Json.object().put("name", name).put("description", description);
        definition.set("inputSchema", inputSchema);
        tools.put(name, new ToolDef(definition, fixture));
    }

    private static Outcome logging(CallContext call) throws InterruptedException {
        call.log(LogLevel.INFO, "Tool execution started");
        Thread.sleep(50);
        call.log(LogLevel.INFO, "Tool processing data");
        Thread.sleep(50);
        call.log(LogLevel.INFO, "Tool execution completed");
        return text("Tool with logging executed successfully");
    }

    private static Outcome progress(CallContext call) throws InterruptedException {
        for (int step = 0; step <= 100; step += 50) {
            call.progress(step, 100, "Completed step " + step + " of 100");
            if (step < 100) {
                Thread.sleep(50);
            }
        }
        return text(call.progressToken() == null ? "No progress token given" : call.progressToken().asString());
    }

    private static Outcome reconnection(CallContext call) throws InterruptedException {
        if (call.exchange().isLegacy()) {
            call.exchange().disconnectForResumption();
        }
        Thread.sleep(100);
        return text("Reconnection test completed successfully. If you received this, the client properly "
                + "reconnected after stream closure.");
    }

    private static Outcome content(ObjectNode... blocks) {
        ObjectNode result = Json.object();
        ArrayNode content = result.putArray("content");
        for (ObjectNode block : blocks) {
            content.add(block);
        }
        return new Outcome.Complete(result);
    }

    private static ObjectNode embedded(String uri, String mimeType, String text) {
        ObjectNode block = Json.object().put("type", "resource");
        block.putObject("resource").put("uri", uri).put("mimeType", mimeType).put("text", text);
        return block;
    }

    private static ObjectNode noArguments() {
        ObjectNode schema = Json.object().put("type", "object");
        schema.putObject("properties");
        return schema;
    }

    private static ObjectNode stringArguments(String name, String description) {
        ObjectNode schema = Json.object().put("type", "object");
        schema.putObject("properties").putObject(name).put("type", "string").put("description", description);
        schema.putArray("required").add(name);
        return schema;
    }
}

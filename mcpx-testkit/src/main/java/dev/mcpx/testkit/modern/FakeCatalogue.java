package dev.mcpx.testkit.modern;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The tools, resources and prompts the fake modern upstream offers, and what calling them does. */
final class FakeCatalogue {

    static final JsonMapper JSON = JsonMapper.builder().build();

    static final String MRTR_TOOL = "mrtr_tool";
    private static final String MRTR_INPUT = "github_login";

    /** What a call does; returns the result (resultType included) or throws {@link Rejection}. */
    interface ToolBody {
        ObjectNode call(JsonNode params, int execution);
    }

    record Tool(ObjectNode definition, ToolBody body) {
        String name() {
            return definition.get("name").asString();
        }
    }

    /** A JSON-RPC error the upstream answers with, at an HTTP status. */
    static final class Rejection extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int httpStatus;
        final int code;
        final transient JsonNode data;

        Rejection(int httpStatus, int code, String message, JsonNode data) {
            super(message);
            this.httpStatus = httpStatus;
            this.code = code;
            this.data = data;
        }
    }

    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private final Map<String, String> resources = new LinkedHashMap<>();
    private final Set<String> issuedStates = ConcurrentHashMap.newKeySet();

    FakeCatalogue() {
        put(echoTool("read_only_tool", "{'readOnlyHint': true}"));
        put(echoTool("idempotent_tool", "{'readOnlyHint': false, 'idempotentHint': true, 'destructiveHint': false}"));
        put(echoTool("destructive_tool", "{'readOnlyHint': false, 'idempotentHint': false, 'destructiveHint': true}"));
        put(echoTool("plain_tool", null));
        put(new Tool(parse("""
                {'name': 'header_tool', 'description': 'Mirrors parameters into Mcp-Param headers',
                 'inputSchema': {'type': 'object', 'properties': {
                   'region': {'type': 'string', 'x-mcp-header': 'Region'},
                   'count': {'type': 'integer', 'x-mcp-header': 'Count'},
                   'verbose': {'type': 'boolean', 'x-mcp-header': 'Verbose'},
                   'target': {'type': 'object', 'properties': {'zone': {'type': 'string', 'x-mcp-header': 'Zone'}}},
                   'query': {'type': 'string'}}},
                 'annotations': {'readOnlyHint': true}}"""), FakeCatalogue::echo));
        put(new Tool(parse("""
                {'name': 'invalid_header_tool', 'description': 'x-mcp-header inside items: clients must not offer it',
                 'inputSchema': {'type': 'object', 'properties': {
                   'tags': {'type': 'array', 'items': {'type': 'string', 'x-mcp-header': 'Tag'}}}}}"""),
                FakeCatalogue::echo));
        put(new Tool(parse("""
                {'name': 'mrtr_tool', 'description': 'Asks for the GitHub login through MRTR, then greets it',
                 'inputSchema': {'type': 'object', 'properties': {}}}"""), this::mrtr));
        resources.put("file:///docs/readme.md", "# readme\n");
        resources.put("file:///docs/café menu.txt", "soup of the day\n");
    }

    synchronized void put(Tool tool) {
        tools.put(tool.name(), tool);
    }

    synchronized Tool tool(String name) {
        return tools.get(name);
    }

    synchronized List<ObjectNode> toolDefinitions() {
        List<ObjectNode> out = new ArrayList<>();
        for (Tool tool : tools.values()) {
            out.add(tool.definition().deepCopy());
        }
        return out;
    }

    Map<String, String> resources() {
        return resources;
    }

    static Tool echoTool(String name, String annotations) {
        ObjectNode definition = parse("{'name': '" + name + "', 'description': 'Echoes its arguments',"
                + " 'inputSchema': {'type': 'object', 'properties': {'text': {'type': 'string'}}}}");
        if (annotations != null) {
            definition.set("annotations", parse(annotations));
        }
        return new Tool(definition, FakeCatalogue::echo);
    }

    /** A complete result naming the tool, the execution number and the arguments it got. */
    static ObjectNode echo(JsonNode params, int execution) {
        String name = params.get("name").asString();
        ObjectNode result = complete();
        ObjectNode text = result.putArray("content").addObject();
        text.put("type", "text");
        text.put("text", name + " execution " + execution);
        ObjectNode structured = result.putObject("structuredContent");
        structured.put("tool", name);
        structured.put("execution", execution);
        JsonNode arguments = params.get("arguments");
        structured.set("arguments", arguments == null ? JSON.createObjectNode() : arguments.deepCopy());
        result.put("isError", false);
        return result;
    }

    /**
     * First round: input_required with an elicitation and an opaque state full of characters
     * that a careless client would alter. Retry: the state must come back byte for byte.
     */
    private ObjectNode mrtr(JsonNode params, int execution) {
        JsonNode capabilities = params.path("_meta").path("io.modelcontextprotocol/clientCapabilities");
        if (!capabilities.has("elicitation")) {
            ObjectNode data = JSON.createObjectNode();
            data.putArray("requiredCapabilities").add("elicitation");
            throw new Rejection(400, -32021, "mrtr_tool needs the elicitation capability", data);
        }
        JsonNode responses = params.get("inputResponses");
        if (responses == null) {
            String state = "state/" + execution + "+/= \"ünïcödé\" \\ end";
            issuedStates.add(state);
            ObjectNode result = JSON.createObjectNode();
            result.put("resultType", "input_required");
            ObjectNode request = result.putObject("inputRequests").putObject(MRTR_INPUT);
            request.put("method", "elicitation/create");
            ObjectNode elicit = request.putObject("params");
            elicit.put("mode", "form");
            elicit.put("message", "Please provide your GitHub username");
            elicit.set("requestedSchema", parse("{'type': 'object', 'properties': {'name': {'type': 'string'}}, 'required': ['name']}"));
            result.put("requestState", state);
            return result;
        }
        JsonNode state = params.get("requestState");
        if (state == null || !state.isString() || !issuedStates.contains(state.asString())) {
            throw new Rejection(200, -32602, "requestState was not echoed byte for byte", null);
        }
        JsonNode login = responses.path(MRTR_INPUT).path("content").path("name");
        if (!login.isString()) {
            throw new Rejection(200, -32602, "inputResponses lacks " + MRTR_INPUT, null);
        }
        ObjectNode result = complete();
        ObjectNode text = result.putArray("content").addObject();
        text.put("type", "text");
        text.put("text", "hello " + login.asString());
        result.put("isError", false);
        return result;
    }

    static ObjectNode complete() {
        ObjectNode result = JSON.createObjectNode();
        result.put("resultType", "complete");
        return result;
    }

    /** JSON with single quotes for readability in this file. */
    static ObjectNode parse(String singleQuoted) {
        return (ObjectNode) JSON.readTree(singleQuoted.replace('\'', '"'));
    }
}

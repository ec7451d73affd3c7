package dev.mcpx.front;

import dev.mcpx.catalogue.HostView;
import dev.mcpx.catalogue.ListKind;
import dev.mcpx.catalogue.ToolIndex;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.MetaKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Search mode: hosts are listed three meta-tools (and the pinned tools) instead of the whole
 * catalogue, find tools by searching, read one's schema, and call it by name. The call is
 * answered by the same path as a direct call of that tool, so filters, profiles, recovery and
 * re-issue gating are those of the tool itself.
 */
final class SearchMode {

    static final String SEARCH = "mcpx__search_tools";
    static final String DESCRIBE = "mcpx__describe_tool";
    static final String CALL = "mcpx__call_tool";
    static final Set<String> META_TOOLS = Set.of(SEARCH, DESCRIBE, CALL);
    static final int DEFAULT_LIMIT = 5;
    static final int MAX_LIMIT = 50;

    private static final List<ObjectNode> DEFINITIONS = List.of(
            definition(SEARCH, "Search the tools available through this gateway by what they do. Returns the best "
                    + "matches (name, description, relevance), best first. Then call " + DESCRIBE
                    + " for a tool's arguments and " + CALL + " to run it.", true, Json.object()
                    .<ObjectNode>set("query", property("string", "What you want to do, in a few words, e.g. "
                            + "\"create a GitHub issue\" or \"read a file\""))
                    .set("limit", property("integer", "How many tools to return (default " + DEFAULT_LIMIT
                            + ", at most " + MAX_LIMIT + ")")), "query"),
            definition(DESCRIBE, "The full definition of one tool found with " + SEARCH
                    + ": its description, input schema and annotations.", true, Json.object()
                    .set("name", property("string", "The tool's name, as " + SEARCH + " gave it")), "name"),
            definition(CALL, "Call a tool found with " + SEARCH + " by its name, with its arguments as "
                    + DESCRIBE + " describes them. Returns that tool's result.", false, Json.object()
                    .<ObjectNode>set("name", property("string", "The tool's name, as " + SEARCH + " gave it"))
                    .set("arguments", Json.object().put("type", "object")
                            .put("description", "The tool's arguments")), "name"));

    private SearchMode() {
    }

    /** What a search-mode host is listed: the meta-tools, then the pinned tools in catalogue order. */
    static List<ObjectNode> listed(HostView hosts) {
        List<ObjectNode> listed = new ArrayList<>(DEFINITIONS.size());
        DEFINITIONS.forEach(definition -> listed.add(definition.deepCopy()));
        for (ObjectNode tool : hosts.list(ListKind.TOOLS)) {
            String name = Json.text(tool, "name");
            if (name != null && hosts.profile().search().pins(name)) {
                listed.add(tool);
            }
        }
        return listed;
    }

    static JsonNode search(ToolIndex index, ObjectNode params) {
        ObjectNode arguments = Json.objectAt(params, "arguments");
        String query = Json.text(arguments, "query");
        if (query == null || query.isBlank()) {
            return toolError("\"query\" is required: a few words saying what the tool should do");
        }
        JsonNode limitNode = arguments.get("limit");
        int limit = DEFAULT_LIMIT;
        if (limitNode != null && !limitNode.isNull()) {
            if (!limitNode.isIntegralNumber() || limitNode.asInt() < 1) {
                return toolError("\"limit\" must be a whole number from 1 to " + MAX_LIMIT);
            }
            limit = Math.min(MAX_LIMIT, limitNode.asInt());
        }
        ArrayNode found = Json.array();
        for (ToolIndex.Hit hit : index.search(query, limit)) {
            ObjectNode entry = found.addObject();
            entry.put("name", Json.text(hit.tool(), "name"));
            String description = Json.text(hit.tool(), "description");
            if (description != null) {
                entry.put("description", description);
            }
            entry.put("score", Math.round(hit.score() * 1000) / 1000.0);
        }
        ObjectNode structured = Json.object();
        structured.set("tools", found);
        structured.put("searched", index.size());
        return toolResult(structured);
    }

    static JsonNode describe(HostView hosts, ObjectNode params) {
        String name = Json.text(Json.objectAt(params, "arguments"), "name");
        if (name == null) {
            return toolError("\"name\" is required: a tool's name as " + SEARCH + " gave it");
        }
        for (ObjectNode tool : hosts.list(ListKind.TOOLS)) {
            if (name.equals(Json.text(tool, "name"))) {
                return toolResult(Json.object().set("tool", tool));
            }
        }
        return toolError("Unknown tool: " + name + " (search with " + SEARCH + ")");
    }

    /**
     * The {@code tools/call} params of the tool {@code mcpx__call_tool} names: its name and
     * arguments, with the host's {@code _meta} (progress token, protocol keys) kept.
     */
    static ObjectNode innerCall(ObjectNode params) {
        ObjectNode arguments = Json.objectAt(params, "arguments");
        String name = Json.text(arguments, "name");
        if (name == null) {
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS,
                    CALL + " needs arguments.name: the tool to call"));
        }
        if (META_TOOLS.contains(name)) {
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS,
                    CALL + " calls a catalogue tool, not " + name));
        }
        JsonNode inner = arguments.get("arguments");
        if (inner != null && !inner.isNull() && !(inner instanceof ObjectNode)) {
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS,
                    CALL + "'s arguments.arguments must be an object"));
        }
        ObjectNode call = Json.object();
        call.put("name", name);
        call.set("arguments", inner instanceof ObjectNode object ? object : Json.object());
        ObjectNode meta = Json.objectAt(params, MetaKeys.META);
        if (meta != null) {
            call.set(MetaKeys.META, meta);
        }
        return call;
    }

    private static ObjectNode toolResult(ObjectNode structured) {
        ObjectNode result = Json.object();
        result.putArray("content").addObject().put("type", "text").put("text", Json.write(structured));
        result.set("structuredContent", structured);
        return result;
    }

    private static ObjectNode toolError(String message) {
        ObjectNode result = Json.object();
        result.putArray("content").addObject().put("type", "text").put("text", message);
        result.put("isError", true);
        return result;
    }

    private static ObjectNode definition(String name, String description, boolean readOnly, ObjectNode properties,
                                         String required) {
        ObjectNode tool = Json.object();
        tool.put("name", name);
        tool.put("description", description);
        ObjectNode schema = tool.putObject("inputSchema");
        schema.put("type", "object");
        schema.set("properties", properties);
        schema.putArray("required").add(required);
        ObjectNode annotations = tool.putObject("annotations");
        annotations.put("readOnlyHint", readOnly);
        if (readOnly) {
            annotations.put("idempotentHint", true);
        }
        annotations.put("openWorldHint", !readOnly);
        return tool;
    }

    private static ObjectNode property(String type, String description) {
        return Json.object().put("type", type).put("description", description);
    }
}

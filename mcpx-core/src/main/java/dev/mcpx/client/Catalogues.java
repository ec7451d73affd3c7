package dev.mcpx.client;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ParamHeaders;
import dev.mcpx.protocol.ToolDescriptor;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The upstream's catalogues (tools, resources, resource templates, prompts): each list drained
 * of its pages and cached until invalidated, and the tools' last known descriptors, from which a
 * modern {@code tools/call} takes its {@code Mcp-Param-*} headers.
 */
final class Catalogues {

    private static final Logger log = LoggerFactory.getLogger(Catalogues.class);

    private final String name;
    /** The client's request with default options: every page passes its recoveries. */
    private final BiFunction<String, ObjectNode, JsonNode> request;
    private final Supplier<Era> era;
    private final Supplier<Transport> transport;
    private final ListCache lists = new ListCache();
    private final Map<String, ToolDescriptor> toolsByName = new ConcurrentHashMap<>();

    Catalogues(String name, BiFunction<String, ObjectNode, JsonNode> request, Supplier<Era> era,
            Supplier<Transport> transport) {
        this.name = name;
        this.request = request;
        this.era = era;
        this.transport = transport;
    }

    List<ToolDescriptor> tools() {
        List<ToolDescriptor> tools = new ArrayList<>();
        for (ObjectNode raw : list(Methods.TOOLS_LIST, "tools")) {
            ToolDescriptor tool = ToolDescriptor.from(raw);
            if (tool != null) {
                tools.add(tool);
            }
        }
        return tools;
    }

    List<ObjectNode> list(String method, String field) {
        List<ObjectNode> cached = lists.get(method);
        if (cached != null) {
            return cached;
        }
        List<ObjectNode> items = new ArrayList<>();
        long ttlMs = -1;
        String cursor = null;
        int pages = 0;
        do {
            ObjectNode params = null;
            if (cursor != null) {
                params = Json.object().put("cursor", cursor);
            }
            JsonNode page = request.apply(method, params);
            if (pages == 0 && page.path("ttlMs").canConvertToLong() && era.get() == Era.MODERN) {
                ttlMs = page.path("ttlMs").asLong();
            }
            if (page.get(field) instanceof ArrayNode array) {
                array.forEach(item -> {
                    if (item instanceof ObjectNode object) {
                        items.add(object);
                    }
                });
            }
            String next = Json.text(page, "nextCursor");
            cursor = next == null || next.isEmpty() || next.equals(cursor) ? null : next;
        } while (cursor != null && ++pages < 10_000);
        if (Methods.TOOLS_LIST.equals(method) && mirrorsParamHeaders(era.get(), transport.get())) {
            items.removeIf(this::breaksParamHeaderRules);
        }
        if (Methods.TOOLS_LIST.equals(method)) {
            Map<String, ToolDescriptor> byName = new HashMap<>();
            items.forEach(item -> {
                ToolDescriptor tool = ToolDescriptor.from(item);
                if (tool != null) {
                    byName.put(tool.name(), tool);
                }
            });
            toolsByName.keySet().retainAll(byName.keySet());
            toolsByName.putAll(byName);
        }
        lists.put(method, items, ttlMs);
        return items;
    }

    /** Modern Streamable HTTP mirrors x-mcp-header parameters into headers; other wires may ignore them. */
    static boolean mirrorsParamHeaders(Era era, Transport t) {
        return era == Era.MODERN && t != null && t.kind() == TransportKind.STREAMABLE_HTTP;
    }

    /** The spec says a tool whose x-mcp-header annotations break the rules is left out, with a warning. */
    private boolean breaksParamHeaderRules(ObjectNode tool) {
        try {
            ParamHeaders.of(tool.get("inputSchema"));
            return false;
        } catch (ParamHeaders.InvalidParamHeaderException e) {
            log.warn("{}: leaving out tool {}: {}", name, Json.text(tool, "name"), e.getMessage());
            return true;
        }
    }

    /** The {@code Mcp-Param-*} headers of a modern {@code tools/call}, from the tool's last known schema. */
    Map<String, String> paramHeaders(Transport t, String method, ObjectNode params) {
        if (!Methods.TOOLS_CALL.equals(method) || !mirrorsParamHeaders(era.get(), t)) {
            return Map.of();
        }
        String tool = Json.text(params, "name");
        ToolDescriptor descriptor = tool == null ? null : lookUpTool(tool);
        if (descriptor == null) {
            return Map.of();
        }
        try {
            ParamHeaders mirrored = ParamHeaders.of(descriptor.inputSchema());
            mirrored.requireSafeIntegers(params.get("arguments"));
            return mirrored.headersFor(params.get("arguments"));
        } catch (ParamHeaders.InvalidParamHeaderException e) {
            return Map.of();
        } catch (ParamHeaders.UnsafeIntegerException e) {
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, tool + ": " + e.getMessage()));
        }
    }

    /** The tool's last known descriptor; when unknown, refreshes the list once to find out. */
    ToolDescriptor lookUpTool(String tool) {
        ToolDescriptor known = toolsByName.get(tool);
        if (known != null) {
            return known;
        }
        try {
            lists.invalidate(Methods.TOOLS_LIST);
            tools();
        } catch (McpException e) {
            log.info("{}: could not refresh tools to look up {}: {}", name, tool, e.getMessage());
            return null;
        }
        return toolsByName.get(tool);
    }

    boolean expired(CatalogueKind kind) {
        return switch (kind) {
            case TOOLS -> lists.expired(Methods.TOOLS_LIST);
            case RESOURCES -> lists.expired(Methods.RESOURCES_LIST) || lists.expired(Methods.RESOURCES_TEMPLATES_LIST);
            case PROMPTS -> lists.expired(Methods.PROMPTS_LIST);
        };
    }

    void invalidate(CatalogueKind kind) {
        switch (kind) {
            case TOOLS -> lists.invalidate(Methods.TOOLS_LIST);
            case RESOURCES -> {
                lists.invalidate(Methods.RESOURCES_LIST);
                lists.invalidate(Methods.RESOURCES_TEMPLATES_LIST);
            }
            case PROMPTS -> lists.invalidate(Methods.PROMPTS_LIST);
        }
    }

    /** An upstream in another era may have other tools: none of the old descriptors holds. */
    void forgetTools() {
        toolsByName.clear();
    }
}

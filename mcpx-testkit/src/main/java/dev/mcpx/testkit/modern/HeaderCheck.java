package dev.mcpx.testkit.modern;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Server validation of the 2026-07-28 request headers against the body: MCP-Protocol-Version,
 * Mcp-Method, Mcp-Name and the tool's Mcp-Param-* headers. Any disagreement is a problem the
 * upstream answers with 400 and -32020.
 */
final class HeaderCheck {

    private static final String PARAM_PREFIX = "mcp-param-";

    private HeaderCheck() {
    }

    /**
     * @param headers request headers keyed by lower-case name
     * @param tool the called tool's definition, or null when the request is not a tools/call of
     *     a known tool
     */
    static Optional<String> problem(Map<String, List<String>> headers, String version, String method,
                                    JsonNode params, JsonNode tool) {
        String versionHeader = single(headers, "mcp-protocol-version");
        if (versionHeader == null) {
            return Optional.of("MCP-Protocol-Version header is missing");
        }
        if (!versionHeader.equals(version)) {
            return Optional.of("MCP-Protocol-Version header '" + versionHeader + "' does not match _meta '" + version + "'");
        }
        String methodHeader = single(headers, "mcp-method");
        if (methodHeader == null) {
            return Optional.of("Mcp-Method header is missing");
        }
        if (!methodHeader.equals(method)) {
            return Optional.of("Mcp-Method header '" + methodHeader + "' does not match body '" + method + "'");
        }
        String nameField = switch (method) {
            case "tools/call", "prompts/get" -> "name";
            case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
            case "resources/read" -> "uri";
            default -> null;
        };
        if (nameField != null) {
            Optional<String> nameProblem = compare("Mcp-Name", single(headers, "mcp-name"), text(params, nameField));
            if (nameProblem.isPresent()) {
                return nameProblem;
            }
        }
        if (!method.equals("tools/call")) {
            return Optional.empty();
        }
        return paramProblem(headers, tool, params == null ? null : params.get("arguments"));
    }

    private static Optional<String> paramProblem(Map<String, List<String>> headers, JsonNode tool, JsonNode arguments) {
        Map<String, List<String>> annotated = new HashMap<>();
        if (tool != null) {
            collect(tool.get("inputSchema"), new ArrayList<>(), annotated);
        }
        for (String header : headers.keySet()) {
            if (header.startsWith(PARAM_PREFIX) && !annotated.containsKey(header.substring(PARAM_PREFIX.length()))) {
                return Optional.of("header " + header + " names no x-mcp-header parameter of the tool");
            }
        }
        for (Map.Entry<String, List<String>> param : annotated.entrySet()) {
            JsonNode value = arguments;
            for (String step : param.getValue()) {
                value = value == null || !value.isObject() ? null : value.get(step);
            }
            String header = single(headers, PARAM_PREFIX + param.getKey());
            boolean absent = value == null || value.isNull();
            if (absent && header != null) {
                return Optional.of("Mcp-Param-" + param.getKey() + " sent for a parameter the body does not carry");
            }
            if (!absent) {
                Optional<String> problem = compareValue("Mcp-Param-" + param.getKey(), header, value);
                if (problem.isPresent()) {
                    return problem;
                }
            }
        }
        return Optional.empty();
    }

    /** The x-mcp-header annotations reachable through properties alone, lower-cased name -> path. */
    private static void collect(JsonNode schema, List<String> path, Map<String, List<String>> out) {
        if (schema == null || !schema.isObject()) {
            return;
        }
        JsonNode name = schema.get("x-mcp-header");
        if (name != null && name.isString() && !path.isEmpty()) {
            out.put(name.asString().toLowerCase(Locale.ROOT), List.copyOf(path));
        }
        JsonNode properties = schema.get("properties");
        if (properties != null && properties.isObject()) {
            for (Map.Entry<String, JsonNode> property : properties.properties()) {
                path.add(property.getKey());
                collect(property.getValue(), path, out);
                path.removeLast();
            }
        }
    }

    private static Optional<String> compareValue(String what, String raw, JsonNode value) {
        if (raw == null) {
            return Optional.of(what + " header is missing but the body carries " + value);
        }
        String decoded;
        try {
            decoded = SentinelHeader.decode(raw);
        } catch (IllegalArgumentException e) {
            return Optional.of(what + " header is malformed: " + e.getMessage());
        }
        boolean same;
        if (value.isNumber()) {
            try {
                same = new BigDecimal(decoded).compareTo(value.decimalValue()) == 0;
            } catch (NumberFormatException e) {
                same = false;
            }
        } else if (value.isBoolean()) {
            same = decoded.equals(value.asBoolean() ? "true" : "false");
        } else if (value.isString()) {
            same = decoded.equals(value.asString());
        } else {
            same = decoded.equals(value.toString());
        }
        return same ? Optional.empty()
                : Optional.of(what + " header value '" + decoded + "' does not match body value " + value);
    }

    private static Optional<String> compare(String what, String raw, String bodyValue) {
        if (raw == null) {
            return Optional.of(what + " header is missing");
        }
        String decoded;
        try {
            decoded = SentinelHeader.decode(raw);
        } catch (IllegalArgumentException e) {
            return Optional.of(what + " header is malformed: " + e.getMessage());
        }
        return decoded.equals(bodyValue) ? Optional.empty()
                : Optional.of(what + " header value '" + decoded + "' does not match body value '" + bodyValue + "'");
    }

    private static String single(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value != null && value.isString() ? value.asString() : null;
    }
}

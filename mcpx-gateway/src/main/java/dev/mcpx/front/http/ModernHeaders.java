package dev.mcpx.front.http;

import dev.mcpx.front.HostRequests;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.HeaderValues;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ParamHeaders;
import dev.mcpx.protocol.TasksExtension;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.jetty.http.HttpFields;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The 2026-07-28 rules for a request's headers and {@code _meta}: the body must carry its
 * version and capabilities (-32602), {@code MCP-Protocol-Version}, {@code Mcp-Method}, where
 * required {@code Mcp-Name}, and every {@code Mcp-Param-*} the tool's schema asks for must be
 * present and match the body (-32020, HeaderMismatch); a version mcpx does not speak is -32022.
 */
final class ModernHeaders {

    /** The methods whose Mcp-Name mirrors a body field, and that field (the tasks extension adds taskId). */
    private static final Map<String, String> NAMED = Map.of(Methods.TOOLS_CALL, "name", Methods.PROMPTS_GET, "name",
            Methods.RESOURCES_READ, "uri", Methods.TASKS_GET, TasksExtension.TASK_ID,
            Methods.TASKS_UPDATE, TasksExtension.TASK_ID, Methods.TASKS_CANCEL, TasksExtension.TASK_ID);
    private static final String SENTINEL_START = "=?base64?";
    private static final String SENTINEL_END = "?=";

    private ModernHeaders() {
    }

    /** {@code toolSchema} finds the inputSchema of a host-facing tool name, for the Mcp-Param checks. */
    static void validate(Request hostRequest, HttpFields headers, Function<String, Optional<JsonNode>> toolSchema) {
        ObjectNode meta = Json.objectAt(hostRequest.params(), MetaKeys.META);
        String bodyVersion = Json.text(meta, MetaKeys.PROTOCOL_VERSION);
        if (bodyVersion == null) {
            HostRequests.requireModernMeta(hostRequest);
        }
        String headerVersion = headers.get("MCP-Protocol-Version");
        if (headerVersion == null) {
            throw mismatch("the MCP-Protocol-Version header is required");
        }
        if (!headerVersion.equals(bodyVersion)) {
            throw mismatch("MCP-Protocol-Version header '" + headerVersion + "' does not match body value '" + bodyVersion + "'");
        }
        HostRequests.requireModernMeta(hostRequest);
        String method = headers.get("Mcp-Method");
        if (method == null) {
            throw mismatch("the Mcp-Method header is required");
        }
        if (!method.equals(hostRequest.method())) {
            throw mismatch("Mcp-Method header '" + method + "' does not match body value '" + hostRequest.method() + "'");
        }
        if (NAMED.containsKey(hostRequest.method())) {
            String bodyName = Json.text(hostRequest.params(), NAMED.get(hostRequest.method()));
            String name = headers.get("Mcp-Name");
            if (name == null) {
                throw mismatch("the Mcp-Name header is required for " + hostRequest.method());
            }
            String decoded = decode(name, "Mcp-Name");
            if (!decoded.equals(bodyName)) {
                throw mismatch("Mcp-Name header '" + name + "' does not match body value '" + bodyName + "'");
            }
            if (Methods.TOOLS_CALL.equals(hostRequest.method())) {
                toolSchema.apply(bodyName).ifPresent(schema -> validateParams(schema, hostRequest.params().get("arguments"), headers));
            }
        }
    }

    /** Every header the tool's {@code x-mcp-header} annotations call for must be there and agree with the body. */
    private static void validateParams(JsonNode schema, JsonNode arguments, HttpFields headers) {
        ParamHeaders params;
        try {
            params = ParamHeaders.of(schema);
        } catch (IllegalArgumentException e) {
            return;
        }
        for (Map.Entry<String, String> expected : params.headersFor(arguments).entrySet()) {
            String sent = headers.get(expected.getKey());
            if (sent == null) {
                throw mismatch("the " + expected.getKey() + " header is required: the arguments carry its value");
            }
            String sentValue = decode(sent, expected.getKey());
            String bodyValue = HeaderValues.decode(expected.getValue());
            if (!sentValue.equals(bodyValue) && !sameNumber(sentValue, bodyValue)) {
                throw mismatch(expected.getKey() + " header '" + sent + "' does not match body value '" + bodyValue + "'");
            }
        }
    }

    private static boolean sameNumber(String a, String b) {
        try {
            return new BigDecimal(a).compareTo(new BigDecimal(b)) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Decodes a header value; a Base64 sentinel must be canonical (padded), as the spec's table demands. */
    private static String decode(String value, String header) {
        if (value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END)
                && (value.length() - SENTINEL_START.length() - SENTINEL_END.length()) % 4 != 0) {
            throw mismatch(header + " header is malformed: Base64 without its padding");
        }
        try {
            return HeaderValues.decode(value);
        } catch (IllegalArgumentException e) {
            throw mismatch(header + " header is malformed: " + e.getMessage());
        }
    }

    private static McpErrorException mismatch(String detail) {
        return new McpErrorException(JsonRpcError.of(ErrorCodes.HEADER_MISMATCH, "Header mismatch: " + detail));
    }
}

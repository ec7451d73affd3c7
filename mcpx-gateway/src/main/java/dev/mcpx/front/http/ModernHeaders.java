package dev.mcpx.front.http;

import dev.mcpx.front.HostRequests;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;
import org.eclipse.jetty.http.HttpFields;

/**
 * The 2026-07-28 header rules for a request: {@code MCP-Protocol-Version}, {@code Mcp-Method}
 * and, where required, {@code Mcp-Name} must be present and match the body. A violation is
 * -32020 (HeaderMismatch); a version mcpx does not speak is -32022 with the supported list.
 */
final class ModernHeaders {

    private static final Set<String> NAMED = Set.of(Methods.TOOLS_CALL, Methods.PROMPTS_GET, Methods.RESOURCES_READ);
    private static final String SENTINEL_START = "=?base64?";
    private static final String SENTINEL_END = "?=";

    private ModernHeaders() {
    }

    static void validate(Request hostRequest, HttpFields headers) {
        String headerVersion = headers.get("MCP-Protocol-Version");
        String bodyVersion = Json.text(Json.objectAt(hostRequest.params(), MetaKeys.META), MetaKeys.PROTOCOL_VERSION);
        if (headerVersion == null) {
            throw mismatch("the MCP-Protocol-Version header is required");
        }
        if (!headerVersion.equals(bodyVersion)) {
            throw mismatch("MCP-Protocol-Version header '" + headerVersion + "' does not match body value '" + bodyVersion + "'");
        }
        if (!ProtocolVersion.LATEST_MODERN.wire().equals(headerVersion)) {
            throw HostRequests.unsupportedVersion(headerVersion);
        }
        String method = headers.get("Mcp-Method");
        if (method == null) {
            throw mismatch("the Mcp-Method header is required");
        }
        if (!method.equals(hostRequest.method())) {
            throw mismatch("Mcp-Method header '" + method + "' does not match body value '" + hostRequest.method() + "'");
        }
        if (NAMED.contains(hostRequest.method())) {
            String bodyName = Json.text(hostRequest.params(), Methods.RESOURCES_READ.equals(hostRequest.method()) ? "uri" : "name");
            String name = headers.get("Mcp-Name");
            if (name == null) {
                throw mismatch("the Mcp-Name header is required for " + hostRequest.method());
            }
            String decoded = decode(name);
            if (decoded == null || !decoded.equals(bodyName)) {
                throw mismatch("Mcp-Name header '" + name + "' does not match body value '" + bodyName + "'");
            }
        }
    }

    /** A header value, Base64-decoded when it uses the {@code =?base64?...?=} sentinel; null when malformed. */
    static String decode(String value) {
        if (value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END)
                && value.length() >= SENTINEL_START.length() + SENTINEL_END.length()) {
            try {
                byte[] bytes = Base64.getDecoder().decode(
                        value.substring(SENTINEL_START.length(), value.length() - SENTINEL_END.length()));
                return new String(bytes, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return value;
    }

    private static McpErrorException mismatch(String detail) {
        return new McpErrorException(JsonRpcError.of(ErrorCodes.HEADER_MISMATCH, "Header mismatch: " + detail));
    }
}

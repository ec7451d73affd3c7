package dev.mcpx.testkit.conformance;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The single MCP endpoint {@code /mcp}, both eras. A request belongs to the legacy era when it
 * carries Mcp-Session-Id or is an initialize without a 2026 protocol header; everything else is
 * answered statelessly as 2026-07-28, unless the handler is legacy-only.
 */
final class McpHandler extends Handler.Abstract {

    private static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private final LegacyTransport legacy;
    private final ModernTransport modern;
    private final boolean speaksModern;

    McpHandler(LegacyTransport legacy, ModernTransport modern, boolean speaksModern) {
        this.legacy = legacy;
        this.modern = modern;
        this.speaksModern = speaksModern;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!"/mcp".equals(Request.getPathInContext(request))) {
            return false;
        }
        try {
            serve(request, response);
            callback.succeeded();
        } catch (Throwable failure) {
            callback.failed(failure);
        }
        return true;
    }

    private void serve(Request request, Response response) throws InterruptedException {
        HttpFields headers = request.getHeaders();
        if (!isLocal(headers.get("Host")) || !isLocalOrigin(headers.get("Origin"))) {
            // DNS rebinding protection: a browser page from elsewhere must not reach a local server.
            Exchange.writeJson(response, 403, Json.error(null, RpcError.of(RpcError.INVALID_REQUEST,
                    "Forbidden: Host and Origin must be localhost")));
            return;
        }
        String sessionId = headers.get("Mcp-Session-Id");
        switch (request.getMethod()) {
            case "POST" -> post(request, response, sessionId);
            case "GET" -> legacy.get(sessionId, headers.get("Last-Event-ID"), response);
            case "DELETE" -> legacy.delete(sessionId, response);
            default -> Exchange.writeEmpty(response, 405);
        }
    }

    private void post(Request request, Response response, String sessionId) throws InterruptedException {
        JsonNode message;
        try {
            message = Json.parse(Content.Source.asString(request, StandardCharsets.UTF_8));
        } catch (JacksonException | java.io.IOException unreadable) {
            Exchange.writeJson(response, 400, Json.error(null, RpcError.of(RpcError.PARSE_ERROR, "Parse error")));
            return;
        }
        HttpFields headers = request.getHeaders();
        String versionHeader = headers.get("MCP-Protocol-Version");
        if (sessionId != null) {
            legacy.post(sessionId, versionHeader, message, response);
        } else if ("initialize".equals(Json.string(message, "method"))
                && (versionHeader == null || LegacyTransport.isLegacyVersion(versionHeader))) {
            legacy.initialize(message, response);
        } else if (!speaksModern || (LegacyTransport.isLegacyVersion(versionHeader)
                && message.path("params").path("_meta").get(ModernTransport.META_VERSION) == null)) {
            Exchange.writeJson(response, 400, Json.error(message.get("id"), RpcError.of(RpcError.INVALID_REQUEST,
                    "Missing Mcp-Session-Id: initialize first (2025-11-25)")));
        } else {
            modern.post(headers, message, response);
        }
    }

    private static boolean isLocal(String host) {
        if (host == null) {
            return true;
        }
        String name = host.startsWith("[") ? host.substring(0, host.indexOf(']') + 1) : host.split(":")[0];
        return LOCAL_HOSTS.contains(name.toLowerCase(java.util.Locale.ROOT));
    }

    private static boolean isLocalOrigin(String origin) {
        if (origin == null) {
            return true;
        }
        try {
            String host = URI.create(origin).getHost();
            return host != null && LOCAL_HOSTS.contains(host.toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }
}

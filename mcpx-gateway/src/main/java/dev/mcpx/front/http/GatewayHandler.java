package dev.mcpx.front.http;

import dev.mcpx.config.FrontToken;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.telemetry.Telemetry;
import java.util.Set;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Every HTTP request: the access checks first, then {@code /mcp}, {@code /mcp/<profile>}, the
 * status page ({@code /}, {@code /status}) or {@code /metrics}. A token bound to a profile is
 * served that profile on {@code /mcp} and refused on any other profile's path.
 */
final class GatewayHandler extends Handler.Abstract {

    /**
     * Read-only endpoints a monitoring token reaches. Anything else (including unknown paths)
     * counts as {@code /mcp}, so a new endpoint is never open by omission.
     */
    static final Set<String> MONITORING = Set.of("/", "/status", "/metrics");
    private static final String PROFILE_PATH = "/mcp/";

    private final AccessGuard guard;
    private final McpEndpoint mcp;
    private final StatusPage status;
    private final Telemetry telemetry;

    GatewayHandler(AccessGuard guard, McpEndpoint mcp, StatusPage status, Telemetry telemetry) {
        this.guard = guard;
        this.mcp = mcp;
        this.status = status;
        this.telemetry = telemetry;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!guard.originAllowed(request.getHeaders().get("Origin"))) {
            Replies.error(response, callback, 403, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                    "Forbidden: Origin " + request.getHeaders().get("Origin") + " is not allowed"));
            return true;
        }
        if (!guard.hostAllowed(request.getHeaders().get("Host"))) {
            Replies.error(response, callback, 403, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                    "Forbidden: Host " + request.getHeaders().get("Host") + " is not this machine"));
            return true;
        }
        String path = Request.getPathInContext(request);
        AccessGuard.Reach reach = MONITORING.contains(path) ? AccessGuard.Reach.MONITORING : AccessGuard.Reach.MCP;
        switch (guard.authorize(request.getHeaders().get("Authorization"), reach)) {
            case UNAUTHORIZED -> {
                response.getHeaders().put("WWW-Authenticate", "Bearer");
                Replies.error(response, callback, 401, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                        "Unauthorized: a valid bearer token is required"));
                return true;
            }
            case FORBIDDEN -> {
                Replies.error(response, callback, 403, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                        "Forbidden: this token may read the monitoring endpoints only"));
                return true;
            }
            case ALLOWED -> {
                // on to the endpoint
            }
        }
        String method = request.getMethod();
        String profile = path.startsWith(PROFILE_PATH) ? path.substring(PROFILE_PATH.length()) : null;
        if (profile != null && (profile.isEmpty() || profile.contains("/"))) {
            profile = null;
            path = "/not-found";
        }
        McpEndpoint mcpFor = mcp;
        if (path.equals("/mcp") || profile != null) {
            String authorization = request.getHeaders().get("Authorization");
            FrontToken token = authorization == null ? null : guard.match(authorization);
            if (token != null && token.profile() != null) {
                if (profile != null && !profile.equals(token.profile())) {
                    Replies.error(response, callback, 403, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                            "Forbidden: this token is served profile \"" + token.profile() + "\" only (at /mcp or /mcp/"
                                    + token.profile() + ")"));
                    return true;
                }
                profile = token.profile();
            }
            McpEndpoint endpoint = mcp.forProfile(profile);
            if (endpoint == null) {
                Replies.error(response, callback, 404, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                        "Not found: no profile \"" + profile + "\" is configured (mcpx.profiles)"));
                return true;
            }
            path = "/mcp";
            mcpFor = endpoint;
        }
        switch (path) {
            case "/mcp" -> {
                switch (method) {
                    case "POST" -> mcpFor.post(request, response, callback);
                    case "GET" -> mcpFor.get(request, response, callback);
                    case "DELETE" -> mcpFor.delete(request, response, callback);
                    default -> Replies.text(response, callback, 405, "text/plain", "method not allowed\n",
                            "Allow", "GET, POST, DELETE");
                }
            }
            case "/status" -> {
                if ("GET".equals(method)) {
                    status.get(response, callback);
                } else {
                    Replies.text(response, callback, 405, "text/plain", "method not allowed\n", "Allow", "GET");
                }
            }
            case "/" -> {
                if ("GET".equals(method)) {
                    Replies.text(response, callback, 200, "text/html; charset=utf-8", StatusPage.HTML);
                } else {
                    Replies.text(response, callback, 405, "text/plain", "method not allowed\n", "Allow", "GET");
                }
            }
            case "/metrics" -> {
                if ("GET".equals(method)) {
                    telemetry.scrape(request.getHeaders().get("Accept")).ifPresentOrElse(scrape -> scrape.send(response, callback),
                            () -> Replies.text(response, callback, 404, "text/plain", "metrics are off (mcpx.metrics)\n"));
                } else {
                    Replies.text(response, callback, 405, "text/plain", "method not allowed\n", "Allow", "GET");
                }
            }
            default -> Replies.text(response, callback, 404, "text/plain", "not found: try /mcp, /status or /metrics\n");
        }
        return true;
    }
}

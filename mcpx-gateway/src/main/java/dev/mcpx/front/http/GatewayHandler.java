package dev.mcpx.front.http;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.telemetry.Telemetry;
import java.util.Set;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Every HTTP request: the access checks first, then {@code /mcp}, {@code /mcp/<profile>}, the
 * status page ({@code /}, {@code /status}) or {@code /metrics}; the protected resource metadata
 * and the probes ({@code /healthz}, {@code /healthz/ready}) need no token. A token bound to a
 * profile (a configured one, or an access token by its profile claim) is served that profile on {@code /mcp} and refused on any other profile's path.
 */
final class GatewayHandler extends Handler.Abstract {

    /**
     * Read-only endpoints a monitoring token reaches. Anything else (including unknown paths)
     * counts as {@code /mcp}, so a new endpoint is never open by omission.
     */
    static final Set<String> MONITORING = Set.of("/", "/status", "/metrics");
    private static final String PROFILE_PATH = "/mcp/";

    private final AccessGuard guard;
    private final ProtectedResource resource;
    private final McpEndpoint mcp;
    private final StatusPage status;
    private final Telemetry telemetry;
    private final Health health;

    /** {@code resource}: null when the front takes no OAuth access tokens. */
    GatewayHandler(AccessGuard guard, ProtectedResource resource, McpEndpoint mcp, StatusPage status, Telemetry telemetry,
                   Health health) {
        this.health = health;
        this.guard = guard;
        this.resource = resource;
        this.mcp = mcp;
        this.status = status;
        this.telemetry = telemetry;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        // probes come from the orchestrator with its own Host and no token; the answer reveals nothing
        if (Health.answers(path)) {
            health.get(path, request.getMethod(), response, callback);
            return true;
        }
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
        if (resource != null && path.startsWith(ProtectedResource.WELL_KNOWN)) {
            resourceMetadata(path, request.getMethod(), response, callback);
            return true;
        }
        AccessGuard.Reach reach = MONITORING.contains(path) ? AccessGuard.Reach.MONITORING : AccessGuard.Reach.MCP;
        String method = request.getMethod();
        String profile = path.startsWith(PROFILE_PATH) ? path.substring(PROFILE_PATH.length()) : null;
        if (profile != null && (profile.isEmpty() || profile.contains("/"))) {
            profile = null;
            path = "/not-found";
        }
        AccessGuard.Access.Allowed allowed;
        switch (guard.authorize(request.getHeaders().get("Authorization"), reach, profile)) {
            case AccessGuard.Access.Refused refused -> {
                if (refused.challenge() != null) {
                    response.getHeaders().put("WWW-Authenticate", refused.challenge());
                }
                Replies.error(response, callback, refused.status(), null,
                        JsonRpcError.of(ErrorCodes.INVALID_REQUEST, refused.message()));
                return true;
            }
            case AccessGuard.Access.Allowed granted -> allowed = granted;
        }
        McpEndpoint mcpFor = mcp;
        if (path.equals("/mcp") || profile != null) {
            boolean bound = allowed.profile() != null;
            if (bound) {
                if (profile != null && !profile.equals(allowed.profile())) {
                    Replies.error(response, callback, 403, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                            "Forbidden: " + allowed.chooser() + " is served profile \"" + allowed.profile()
                                    + "\" only (at /mcp or /mcp/" + allowed.profile() + ")"));
                    return true;
                }
                profile = allowed.profile();
            }
            McpEndpoint endpoint = mcp.forProfile(profile);
            if (endpoint == null) {
                Replies.error(response, callback, bound ? 403 : 404, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                        bound ? "Forbidden: " + allowed.chooser() + " names profile \"" + profile
                                + "\", which is not configured (mcpx.profiles)"
                                : "Not found: no profile \"" + profile + "\" is configured (mcpx.profiles)"));
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

    /**
     * RFC 9728 metadata, readable without a token: it is how a host learns where to get one. A
     * front without {@code mcpx.auth} has none, and the path is like any other.
     */
    private void resourceMetadata(String path, String method, Response response, Callback callback) {
        String endpoint = resource.endpointOf(path);
        String profile = endpoint == null || endpoint.isEmpty() ? null : endpoint;
        if (endpoint == null || (profile != null && mcp.forProfile(profile) == null)) {
            Replies.text(response, callback, 404, "text/plain",
                    "not found: no such endpoint; the metadata of /mcp is at " + ProtectedResource.WELL_KNOWN + "/mcp\n");
            return;
        }
        if (!"GET".equals(method)) {
            Replies.text(response, callback, 405, "text/plain", "method not allowed\n", "Allow", "GET");
            return;
        }
        Replies.text(response, callback, 200, "application/json", Json.write(resource.metadata(profile)));
    }
}

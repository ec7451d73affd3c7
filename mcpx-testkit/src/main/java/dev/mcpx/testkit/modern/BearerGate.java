package dev.mcpx.testkit.modern;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.JsonNode;

/**
 * An OAuth-protected resource in front of the upstream, once {@link ModernHttpUpstream#requireBearer}
 * names its authorization server: it publishes its Protected Resource Metadata (RFC 9728) and
 * answers a request without a bearer token, or with an expired one (the JWT's {@code exp}, or one
 * {@link ModernHttpUpstream#expireTokensSeen} expired), with 401 and a {@code WWW-Authenticate}
 * challenge pointing at that metadata.
 */
final class BearerGate extends Handler.Wrapper {

    static final String METADATA_PATH = "/.well-known/oauth-protected-resource/mcp";

    private final ModernHttpUpstream upstream;
    final AtomicInteger refused = new AtomicInteger();
    final Set<String> seen = ConcurrentHashMap.newKeySet();
    final Set<String> expired = ConcurrentHashMap.newKeySet();

    BearerGate(ModernHttpUpstream upstream, Handler next) {
        super(next);
        this.upstream = upstream;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String issuer = upstream.authorizationServer;
        if (issuer == null) {
            return super.handle(request, response, callback);
        }
        String resource = upstream.url().toString();
        if (METADATA_PATH.equals(Request.getPathInContext(request))) {
            String body = "{\"resource\":\"" + resource + "\",\"authorization_servers\":[\"" + issuer + "\"]}";
            response.setStatus(200);
            response.getHeaders().put("Content-Type", "application/json");
            response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
            return true;
        }
        String authorization = request.getHeaders().get("Authorization");
        String token = authorization != null && authorization.startsWith("Bearer ") ? authorization.substring(7) : null;
        if (token != null) {
            seen.add(token);
        }
        if (token == null || expired.contains(token) || expired(token)) {
            refused.incrementAndGet();
            String metadata = resource.replace("/mcp", METADATA_PATH);
            response.setStatus(401);
            response.getHeaders().put("WWW-Authenticate", "Bearer resource_metadata=\"" + metadata + "\""
                    + (authorization == null ? "" : ", error=\"invalid_token\""));
            response.getHeaders().put("Content-Type", "application/json");
            response.write(true, ByteBuffer.wrap("{\"error\":\"invalid_token\"}".getBytes(StandardCharsets.UTF_8)), callback);
            return true;
        }
        return super.handle(request, response, callback);
    }

    /** A token that is not a JWT, or whose {@code exp} has passed. The signature is the authorization server's business. */
    private static boolean expired(String token) {
        String[] parts = token.split("\\.");
        if (parts.length != 3) {
            return true;
        }
        try {
            JsonNode payload = FakeCatalogue.JSON.readTree(new String(Base64.getUrlDecoder().decode(parts[1]),
                    StandardCharsets.UTF_8));
            return !payload.path("exp").canConvertToLong() || payload.path("exp").asLong() * 1000 <= System.currentTimeMillis();
        } catch (RuntimeException e) {
            return true;
        }
    }
}

package dev.mcpx.testkit.modern;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import dev.mcpx.testkit.Jws;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
    final AtomicInteger nonceChallenges = new AtomicInteger();
    private final AtomicInteger noncesIssued = new AtomicInteger();
    final List<String> proofProblems = new CopyOnWriteArrayList<>();
    private final Set<String> jtis = Jws.jtis();

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
        String scheme = upstream.dpop ? "DPoP " : "Bearer ";
        String token = authorization != null && authorization.startsWith(scheme) ? authorization.substring(scheme.length())
                : null;
        if (token != null) {
            seen.add(token);
        }
        if (token != null && upstream.dpop) {
            String proof = request.getHeaders().get("DPoP");
            String problem = dpopProblem(proof, request.getMethod(), token);
            if (problem != null) {
                proofProblems.add(problem);
                return refuse(response, callback, "DPoP error=\"invalid_dpop_proof\"", null);
            }
            String nonce = upstream.dpopNonce;
            if (nonce != null && !nonce.equals(Jws.claims(proof).path("nonce").asString(""))) {
                int challenge = nonceChallenges.incrementAndGet();
                if (upstream.dpopNonceRotates) {
                    upstream.dpopNonce = nonce + "-" + challenge;
                }
                return refuse(response, callback, "DPoP error=\"use_dpop_nonce\"", nonce);
            }
            if (nonce != null && upstream.dpopNonceRotatesOnSuccess && !expired.contains(token) && !expired(token)) {
                String next = nonce + "-ok-" + noncesIssued.incrementAndGet();
                upstream.dpopNonce = next;
                response.getHeaders().put("DPoP-Nonce", next);
            }
        }
        if (token == null || expired.contains(token) || expired(token)) {
            refused.incrementAndGet();
            String metadata = resource.replace("/mcp", METADATA_PATH);
            response.setStatus(401);
            response.getHeaders().put("WWW-Authenticate", scheme + "resource_metadata=\"" + metadata + "\""
                    + (authorization == null ? "" : ", error=\"invalid_token\""));
            response.getHeaders().put("Content-Type", "application/json");
            response.write(true, ByteBuffer.wrap("{\"error\":\"invalid_token\"}".getBytes(StandardCharsets.UTF_8)), callback);
            return true;
        }
        return super.handle(request, response, callback);
    }

    private String dpopProblem(String proof, String method, String token) {
        String problem = Jws.dpopProblem(proof, method, upstream.url().toString(), token, jtis);
        if (problem != null) {
            return problem;
        }
        String bound = claims(token).path("cnf").path("jkt").asString("");
        return bound.equals(Jws.thumbprint(Jws.header(proof).path("jwk"))) ? null
                : "the proof's key is not the one the token is bound to";
    }

    private boolean refuse(Response response, Callback callback, String challenge, String nonce) {
        refused.incrementAndGet();
        response.setStatus(401);
        response.getHeaders().put("WWW-Authenticate", challenge + ", resource_metadata=\""
                + upstream.url().toString().replace("/mcp", METADATA_PATH) + "\"");
        if (nonce != null) {
            response.getHeaders().put("DPoP-Nonce", nonce);
        }
        response.getHeaders().put("Content-Type", "application/json");
        response.write(true, ByteBuffer.wrap("{\"error\":\"invalid_token\"}".getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }

    private static JsonNode claims(String token) {
        try {
            return FakeCatalogue.JSON.readTree(new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]),
                    StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return FakeCatalogue.JSON.missingNode();
        }
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

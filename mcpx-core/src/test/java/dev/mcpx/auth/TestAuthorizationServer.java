package dev.mcpx.auth;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.Jws;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * A small authorization server over loopback for the OAuth extensions: its metadata, a token
 * endpoint whose grant check each test gives, DPoP-bound tokens (checked with the JDK alone,
 * see {@link Jws}) with an optional nonce, and an identity provider's token endpoint for
 * enterprise-managed authorization. Every request it gets is recorded.
 */
final class TestAuthorizationServer implements AutoCloseable {

    /** One token endpoint request: its form, its headers (lower-case names). */
    record TokenRequest(Map<String, String> form, Map<String, String> headers) {
        String form(String name) {
            return form.get(name);
        }

        String header(String name) {
            return headers.get(name);
        }
    }

    private final HttpServer server;
    private final URI issuer;
    final List<TokenRequest> tokenRequests = new CopyOnWriteArrayList<>();
    final List<TokenRequest> idpRequests = new CopyOnWriteArrayList<>();
    private final Set<String> dpopJtis = Jws.jtis();
    private volatile List<String> grants = List.of("client_credentials");
    private volatile List<String> authMethods = List.of("client_secret_basic");
    private volatile boolean dpop;
    private volatile String dpopNonce;
    /** The grant check: an OAuth error code to refuse with, or null to issue a token. */
    private volatile Function<TokenRequest, String> check = request -> null;
    private volatile boolean refreshTokens;
    /** The key thumbprint each refresh token is bound to ("" for an unbound one). */
    private final Map<String, String> refreshBindings = new ConcurrentHashMap<>();

    TestAuthorizationServer() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        issuer = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        server.createContext("/.well-known/oauth-authorization-server", this::metadata);
        server.createContext("/token", this::token);
        server.createContext("/idp/token", this::identityProvider);
        server.start();
    }

    URI issuer() {
        return issuer;
    }

    URI tokenEndpoint() {
        return issuer.resolve("/token");
    }

    URI idpTokenEndpoint() {
        return issuer.resolve("/idp/token");
    }

    TestAuthorizationServer grants(String... values) {
        grants = List.of(values);
        return this;
    }

    TestAuthorizationServer authMethods(String... values) {
        authMethods = List.of(values);
        return this;
    }

    TestAuthorizationServer check(Function<TokenRequest, String> value) {
        check = value;
        return this;
    }

    /** Advertises DPoP (ES256) and binds tokens to the key of a valid proof; with a nonce, proofs must carry it. */
    TestAuthorizationServer dpop(String nonce) {
        dpop = true;
        dpopNonce = nonce;
        return this;
    }

    /** Issues refresh tokens too; a DPoP-bound one is refreshed only with a proof of the same key (RFC 9449 section 5). */
    TestAuthorizationServer refreshTokens() {
        refreshTokens = true;
        return this;
    }

    int tokenRequests(String grantType) {
        return (int) tokenRequests.stream().filter(request -> grantType.equals(request.form("grant_type"))).count();
    }

    private void metadata(HttpExchange exchange) throws IOException {
        ObjectNode metadata = Json.object().put("issuer", issuer.toString())
                .put("token_endpoint", tokenEndpoint().toString());
        grants.forEach(metadata.putArray("grant_types_supported")::add);
        authMethods.forEach(metadata.putArray("token_endpoint_auth_methods_supported")::add);
        if (dpop) {
            metadata.putArray("dpop_signing_alg_values_supported").add("ES256");
        }
        answer(exchange, 200, metadata, Map.of());
    }

    private void token(HttpExchange exchange) throws IOException {
        TokenRequest request = read(exchange);
        tokenRequests.add(request);
        String jkt = null;
        // a proof is optional: without one the token is a bearer token (RFC 9449 section 5)
        if (dpop && request.header("dpop") != null) {
            String proof = request.header("dpop");
            String problem = Jws.dpopProblem(proof, "POST", tokenEndpoint().toString(), null, dpopJtis);
            if (problem != null) {
                answer(exchange, 400, error("invalid_dpop_proof", problem), Map.of());
                return;
            }
            if (dpopNonce != null && !dpopNonce.equals(Jws.claims(proof).path("nonce").asString(""))) {
                answer(exchange, 400, error("use_dpop_nonce", "a nonce is required"), Map.of("DPoP-Nonce", dpopNonce));
                return;
            }
            jkt = Jws.thumbprint(Jws.header(proof).path("jwk"));
        }
        if ("refresh_token".equals(request.form("grant_type"))) {
            String bound = refreshBindings.get(String.valueOf(request.form("refresh_token")));
            if (bound == null || !bound.equals(jkt == null ? "" : jkt)) {
                answer(exchange, 400, error("invalid_grant", bound == null ? "unknown refresh token"
                        : "the refresh token is bound to another key"), Map.of());
                return;
            }
        }
        String refusal = check.apply(request);
        if (refusal != null) {
            answer(exchange, 400, error(refusal, "refused by the test"), Map.of());
            return;
        }
        ObjectNode claims = Json.object().put("exp", System.currentTimeMillis() / 1000 + 3600)
                .put("jti", "t" + tokenRequests.size());
        if (jkt != null) {
            claims.putObject("cnf").put("jkt", jkt);
        }
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String token = base64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(Json.write(claims).getBytes(StandardCharsets.UTF_8)) + ".test";
        ObjectNode answer = Json.object().put("access_token", token).put("token_type", jkt != null ? "DPoP" : "Bearer")
                .put("expires_in", 3600);
        if (refreshTokens) {
            String refresh = "rt-" + tokenRequests.size();
            refreshBindings.put(refresh, jkt == null ? "" : jkt);
            answer.put("refresh_token", refresh);
        }
        answer(exchange, 200, answer, Map.of());
    }

    /** RFC 8693 token exchange: an ID token in, an ID-JAG out. */
    private void identityProvider(HttpExchange exchange) throws IOException {
        TokenRequest request = read(exchange);
        idpRequests.add(request);
        if (!OAuthClient.TOKEN_EXCHANGE.equals(request.form("grant_type"))) {
            answer(exchange, 400, error("unsupported_grant_type", request.form("grant_type")), Map.of());
            return;
        }
        answer(exchange, 200, Json.object().put("access_token", "id-jag-" + idpRequests.size())
                .put("issued_token_type", OAuthClient.ID_JAG).put("token_type", "N_A"), Map.of());
    }

    private static TokenRequest read(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> form = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        Map<String, String> headers = new LinkedHashMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT),
                String.join(", ", values)));
        return new TokenRequest(form, headers);
    }

    private static ObjectNode error(String code, String description) {
        return Json.object().put("error", code).put("error_description", description);
    }

    private static void answer(HttpExchange exchange, int status, ObjectNode body, Map<String, String> headers)
            throws IOException {
        byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        headers.forEach(exchange.getResponseHeaders()::set);
        exchange.sendResponseHeaders(status, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Every grant type it was asked for, in order. */
    List<String> grantTypes() {
        List<String> types = new ArrayList<>();
        tokenRequests.forEach(request -> types.add(request.form("grant_type")));
        return types;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

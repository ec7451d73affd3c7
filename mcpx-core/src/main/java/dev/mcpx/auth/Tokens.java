package dev.mcpx.auth;

import dev.mcpx.protocol.Json;
import java.time.Instant;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tokens of one protected resource, with what is needed to refresh them: the issuer that
 * granted them and the scope that was asked for; and for DPoP-bound tokens (RFC 9449) the key
 * they are bound to, stored with them.
 */
record Tokens(String accessToken, String tokenType, String refreshToken, Instant expiresAt, String scope,
              String requestedScope, String issuer, DpopKey dpopKey) {

    /** The {@code Authorization} header value. */
    String authorization() {
        return (bound() ? "DPoP " : "Bearer ") + accessToken;
    }

    /** Whether the token is DPoP-bound: every request carries a proof made with {@link #dpopKey}. */
    boolean bound() {
        return "dpop".equalsIgnoreCase(tokenType) && dpopKey != null;
    }

    /**
     * A token answer (RFC 6749 section 5.1); a refresh answer without a new refresh token keeps the
     * old one. {@code proofKey}: the key of the request's DPoP proof, or null.
     */
    static Tokens fromAnswer(ObjectNode answer, String requestedScope, String issuer, String previousRefreshToken,
                             DpopKey proofKey) {
        String access = Json.text(answer, "access_token");
        if (access == null) {
            return null;
        }
        Instant expires = answer.path("expires_in").canConvertToLong()
                ? Instant.now().plusSeconds(answer.path("expires_in").asLong()) : null;
        String refresh = Json.text(answer, "refresh_token");
        String granted = Json.text(answer, "scope");
        return new Tokens(access, Json.text(answer, "token_type"), refresh != null ? refresh : previousRefreshToken,
                expires, granted != null ? granted : requestedScope, requestedScope, issuer,
                "dpop".equalsIgnoreCase(Json.text(answer, "token_type")) ? proofKey : null);
    }

    ObjectNode toJson() {
        ObjectNode json = Json.object().put("access_token", accessToken).put("token_type", tokenType)
                .put("issuer", issuer);
        if (refreshToken != null) {
            json.put("refresh_token", refreshToken);
        }
        if (expiresAt != null) {
            json.put("expires_at", expiresAt.getEpochSecond());
        }
        if (scope != null) {
            json.put("scope", scope);
        }
        if (requestedScope != null) {
            json.put("requested_scope", requestedScope);
        }
        if (dpopKey != null) {
            json.set("dpop_jwk", Json.parse(dpopKey.toJwk()));
        }
        return json;
    }

    static Tokens fromJson(ObjectNode json) {
        String access = Json.text(json, "access_token");
        if (access == null) {
            return null;
        }
        Instant expires = json.path("expires_at").canConvertToLong()
                ? Instant.ofEpochSecond(json.path("expires_at").asLong()) : null;
        return new Tokens(access, Json.text(json, "token_type"), Json.text(json, "refresh_token"), expires,
                Json.text(json, "scope"), Json.text(json, "requested_scope"), Json.text(json, "issuer"),
                json.path("dpop_jwk").isObject() ? DpopKey.fromJwk(Json.write(json.get("dpop_jwk"))) : null);
    }

    @Override
    public String toString() {
        return "Tokens[type=" + tokenType + ", bound=" + bound() + ", refreshable=" + (refreshToken != null) + ", expiresAt=" + expiresAt
                + ", scope=" + scope + ", issuer=" + issuer + "]";
    }
}

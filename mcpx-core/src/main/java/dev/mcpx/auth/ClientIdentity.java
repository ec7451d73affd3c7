package dev.mcpx.auth;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.mcpx.protocol.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.node.ObjectNode;

/**
 * Who mcpx is at one authorization server, and how it proves it at the token endpoint; a null
 * {@code clientId} is no client authentication at all (a JWT bearer grant whose assertion says
 * who is asking).
 */
record ClientIdentity(String clientId, String secret, String authMethod, SigningKey key) {

    static final ClientIdentity ANONYMOUS = new ClientIdentity(null, null, "none", null);
    static final String JWT_BEARER_ASSERTION = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
    /** How long a client assertion is good for: one token request, with room for clock skew. */
    private static final Duration ASSERTION_LIFETIME = Duration.ofSeconds(60);

    ClientIdentity(String clientId, String secret, String authMethod) {
        this(clientId, secret, authMethod, null);
    }

    /**
     * Adds the client authentication to a token request (RFC 6749 section 2.3.1; RFC 7523
     * section 2.2 for {@code private_key_jwt}, its assertion for {@code audience}, the
     * authorization server's issuer, and good for one request).
     */
    void authenticate(Map<String, String> form, Map<String, String> headers, String audience) {
        if (clientId == null) {
            return;
        }
        switch (authMethod) {
            case "client_secret_basic" -> headers.put("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (AuthHttp.encode(clientId) + ":" + AuthHttp.encode(secret)).getBytes(StandardCharsets.UTF_8)));
            case "client_secret_post" -> {
                form.put("client_id", clientId);
                form.put("client_secret", secret);
            }
            case "private_key_jwt" -> {
                Instant now = Instant.now();
                form.put("client_id", clientId);
                form.put("client_assertion_type", JWT_BEARER_ASSERTION);
                form.put("client_assertion", key.sign(new JWTClaimsSet.Builder().issuer(clientId).subject(clientId)
                        .audience(audience).jwtID(UUID.randomUUID().toString()).issueTime(Date.from(now))
                        .expirationTime(Date.from(now.plus(ASSERTION_LIFETIME))).build(), null));
            }
            default -> form.put("client_id", clientId);
        }
    }

    ObjectNode toJson() {
        ObjectNode json = Json.object().put("client_id", clientId).put("token_endpoint_auth_method", authMethod);
        if (secret != null) {
            json.put("client_secret", secret);
        }
        return json;
    }

    static ClientIdentity fromJson(ObjectNode json) {
        String id = Json.text(json, "client_id");
        if (id == null) {
            return null;
        }
        String secret = Json.text(json, "client_secret");
        String method = Json.text(json, "token_endpoint_auth_method");
        return new ClientIdentity(id, secret, method != null ? method : secret != null ? "client_secret_basic" : "none");
    }

    @Override
    public String toString() {
        return "ClientIdentity[clientId=" + clientId + ", authMethod=" + authMethod + "]";
    }
}

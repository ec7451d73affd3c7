package dev.mcpx.auth;

import dev.mcpx.protocol.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** Who mcpx is at one authorization server, and how it proves it at the token endpoint. */
record ClientIdentity(String clientId, String secret, String authMethod) {

    /** Adds the client authentication to a token request (RFC 6749 section 2.3.1). */
    void authenticate(Map<String, String> form, Map<String, String> headers) {
        switch (authMethod) {
            case "client_secret_basic" -> headers.put("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (AuthHttp.encode(clientId) + ":" + AuthHttp.encode(secret)).getBytes(StandardCharsets.UTF_8)));
            case "client_secret_post" -> {
                form.put("client_id", clientId);
                form.put("client_secret", secret);
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

package dev.mcpx.auth;

import java.net.URI;
import java.util.Objects;

/**
 * The enterprise's identity provider in enterprise-managed authorization: mcpx exchanges the
 * user's ID token there (RFC 8693 token exchange) for an identity assertion authorization grant
 * (ID-JAG) that the MCP server's authorization server takes in a JWT bearer grant.
 *
 * @param tokenEndpoint its token endpoint
 * @param clientId      mcpx's client id at the identity provider
 * @param clientSecret  its secret ({@code client_secret_basic}), or null for a public client
 */
public record IdentityProvider(URI tokenEndpoint, String clientId, String clientSecret) {

    public IdentityProvider {
        Objects.requireNonNull(tokenEndpoint, "tokenEndpoint");
        Objects.requireNonNull(clientId, "clientId");
    }

    /** The secret is never shown. */
    @Override
    public String toString() {
        return "IdentityProvider[tokenEndpoint=" + tokenEndpoint + ", clientId=" + clientId + ", secret="
                + (clientSecret == null ? "none" : "***") + "]";
    }
}

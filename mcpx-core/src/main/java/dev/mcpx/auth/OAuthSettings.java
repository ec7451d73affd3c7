package dev.mcpx.auth;

import java.util.List;

/**
 * How mcpx identifies itself to an upstream's authorization server, and what it asks for. All
 * optional: without a client id mcpx uses a client ID metadata document when it has one and the
 * server supports them, else dynamic registration.
 *
 * @param clientId                a pre-registered client id
 * @param clientSecret            its secret, for {@code client_secret_basic} / {@code client_secret_post}
 * @param tokenEndpointAuthMethod {@code client_secret_basic}, {@code client_secret_post} or {@code none};
 *                                null: basic with a secret, none without
 * @param issuer                  the authorization server the pre-registered client belongs to; null: any
 * @param clientMetadataUrl       an https URL serving this client's metadata document (used as client id)
 * @param scopes                  scopes to ask for when the upstream's challenge names none; empty: the
 *                                resource's {@code scopes_supported}
 * @param clientName              shown by the authorization server on its consent page
 * @param grant                   how tokens are obtained
 */
public record OAuthSettings(String clientId, String clientSecret, String tokenEndpointAuthMethod, String issuer,
                            String clientMetadataUrl, List<String> scopes, String clientName, Grant grant) {

    public enum Grant {
        /** A user approves in a browser (authorization code with PKCE). */
        AUTHORIZATION_CODE,
        /** A machine client with its own credentials (no user). */
        CLIENT_CREDENTIALS
    }

    public OAuthSettings {
        scopes = scopes == null ? List.of() : List.copyOf(scopes);
        clientName = clientName == null ? "mcpx" : clientName;
        grant = grant == null ? Grant.AUTHORIZATION_CODE : grant;
        if (tokenEndpointAuthMethod != null && !List.of("client_secret_basic", "client_secret_post", "none")
                .contains(tokenEndpointAuthMethod)) {
            throw new IllegalArgumentException("token_endpoint_auth_method must be client_secret_basic, client_secret_post"
                    + " or none, not " + tokenEndpointAuthMethod);
        }
    }

    public static OAuthSettings defaults() {
        return new OAuthSettings(null, null, null, null, null, List.of(), null, null);
    }

    public OAuthSettings withClient(String id, String secret, String authMethod, String issuerOfClient) {
        return new OAuthSettings(id, secret, authMethod, issuerOfClient, clientMetadataUrl, scopes, clientName, grant);
    }

    public OAuthSettings withClientMetadataUrl(String url) {
        return new OAuthSettings(clientId, clientSecret, tokenEndpointAuthMethod, issuer, url, scopes, clientName, grant);
    }

    public OAuthSettings withScopes(List<String> value) {
        return new OAuthSettings(clientId, clientSecret, tokenEndpointAuthMethod, issuer, clientMetadataUrl, value,
                clientName, grant);
    }

    public OAuthSettings withGrant(Grant value) {
        return new OAuthSettings(clientId, clientSecret, tokenEndpointAuthMethod, issuer, clientMetadataUrl, scopes,
                clientName, value);
    }

    /** Secrets are never shown. */
    @Override
    public String toString() {
        return "OAuthSettings[clientId=" + clientId + ", secret=" + (clientSecret == null ? "none" : "***")
                + ", tokenEndpointAuthMethod=" + tokenEndpointAuthMethod + ", issuer=" + issuer + ", clientMetadataUrl="
                + clientMetadataUrl + ", scopes=" + scopes + ", grant=" + grant + "]";
    }
}

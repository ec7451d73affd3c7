package dev.mcpx.auth;

import java.util.List;
import java.util.Locale;

/**
 * How mcpx identifies itself to an upstream's authorization server, and what it asks for. All
 * optional: without a client id mcpx uses a client ID metadata document when it has one and the
 * server supports them, else dynamic registration.
 *
 * @param clientId                a pre-registered client id
 * @param clientSecret            its secret, for {@code client_secret_basic} / {@code client_secret_post}
 * @param tokenEndpointAuthMethod {@code client_secret_basic}, {@code client_secret_post}, {@code private_key_jwt}
 *                                or {@code none}; null: {@code private_key_jwt} with a client key, basic with
 *                                a secret, none without
 * @param issuer                  the authorization server the pre-registered client belongs to; null: any
 * @param clientMetadataUrl       an https URL serving this client's metadata document (used as client id)
 * @param scopes                  scopes to ask for when the upstream's challenge names none; empty: the
 *                                resource's {@code scopes_supported}
 * @param clientName              shown by the authorization server on its consent page
 * @param grant                   how tokens are obtained
 * @param clientKey               the private key of {@code private_key_jwt} client assertions (RFC 7523), or null
 * @param dpop                    when tokens are DPoP-bound (RFC 9449)
 * @param assertion               what the JWT bearer grant presents: the workload's JWT ({@link Grant#JWT_BEARER})
 *                                or the user's ID token ({@link Grant#ENTERPRISE_MANAGED}); null for the other grants
 * @param identityProvider        where the ID token is exchanged ({@link Grant#ENTERPRISE_MANAGED} only)
 */
public record OAuthSettings(String clientId, String clientSecret, String tokenEndpointAuthMethod, String issuer,
                            String clientMetadataUrl, List<String> scopes, String clientName, Grant grant,
                            SigningKey clientKey, Dpop dpop, IdentityAssertion assertion,
                            IdentityProvider identityProvider) {

    public enum Grant {
        /** A user approves in a browser (authorization code with PKCE). */
        AUTHORIZATION_CODE,
        /** A machine client with its own credentials (no user). */
        CLIENT_CREDENTIALS,
        /** A workload presents a JWT its platform issued (RFC 7523 section 2.1; workload identity federation). */
        JWT_BEARER,
        /**
         * The user's ID token is exchanged at the enterprise's identity provider for an ID-JAG,
         * which the authorization server takes in a JWT bearer grant (enterprise-managed authorization).
         */
        ENTERPRISE_MANAGED;

        /** Whether tokens come without a user at a browser (so a gateway may get them on its own). */
        public boolean unattended() {
            return this != AUTHORIZATION_CODE;
        }
    }

    /** When mcpx asks for DPoP-bound tokens and proves possession on every request (RFC 9449). */
    public enum Dpop {
        /** When the authorization server lists ES256 in {@code dpop_signing_alg_values_supported}. */
        WHEN_ADVERTISED,
        /** Always (an authorization server that ignores the proof issues a bearer token, which is then used as one). */
        ALWAYS,
        /** Never: bearer tokens only. */
        NEVER
    }

    private static final List<String> AUTH_METHODS = List.of("client_secret_basic", "client_secret_post",
            "private_key_jwt", "none");

    public OAuthSettings {
        scopes = scopes == null ? List.of() : List.copyOf(scopes);
        clientName = clientName == null ? "mcpx" : clientName;
        grant = grant == null ? Grant.AUTHORIZATION_CODE : grant;
        dpop = dpop == null ? Dpop.WHEN_ADVERTISED : dpop;
        if (tokenEndpointAuthMethod == null && clientKey != null) {
            tokenEndpointAuthMethod = "private_key_jwt";
        }
        if (tokenEndpointAuthMethod != null && !AUTH_METHODS.contains(tokenEndpointAuthMethod)) {
            throw new IllegalArgumentException("token_endpoint_auth_method must be one of " + String.join(", ", AUTH_METHODS)
                    + ", not " + tokenEndpointAuthMethod);
        }
        if ("private_key_jwt".equals(tokenEndpointAuthMethod) && (clientKey == null || clientId == null)) {
            throw new IllegalArgumentException("private_key_jwt needs a client id and its private key");
        }
        if (grant == Grant.CLIENT_CREDENTIALS && clientId == null) {
            throw new IllegalArgumentException("the client_credentials grant needs a client id");
        }
        if ((grant == Grant.JWT_BEARER || grant == Grant.ENTERPRISE_MANAGED) && assertion == null) {
            throw new IllegalArgumentException("the " + grant.name().toLowerCase(Locale.ROOT)
                    + " grant needs " + (grant == Grant.JWT_BEARER ? "the workload's JWT" : "the user's ID token"));
        }
        if (grant == Grant.ENTERPRISE_MANAGED && identityProvider == null) {
            throw new IllegalArgumentException("the enterprise_managed grant needs the identity provider's token endpoint"
                    + " and client id");
        }
    }

    public static OAuthSettings defaults() {
        return new OAuthSettings(null, null, null, null, null, List.of(), null, null, null, null, null, null);
    }

    public OAuthSettings withClient(String id, String secret, String authMethod, String issuerOfClient) {
        return new OAuthSettings(id, secret, authMethod, issuerOfClient, clientMetadataUrl, scopes, clientName, grant,
                clientKey, dpop, assertion, identityProvider);
    }

    public OAuthSettings withClientMetadataUrl(String url) {
        return new OAuthSettings(clientId, clientSecret, tokenEndpointAuthMethod, issuer, url, scopes, clientName, grant,
                clientKey, dpop, assertion, identityProvider);
    }

    public OAuthSettings withScopes(List<String> value) {
        return new OAuthSettings(clientId, clientSecret, tokenEndpointAuthMethod, issuer, clientMetadataUrl, value,
                clientName, grant, clientKey, dpop, assertion, identityProvider);
    }

    /** The grant; {@link Grant#JWT_BEARER} and {@link Grant#ENTERPRISE_MANAGED} take their assertion (and provider) with it. */
    public OAuthSettings withGrant(Grant value) {
        return withGrant(value, assertion, identityProvider);
    }

    public OAuthSettings withGrant(Grant value, IdentityAssertion presented, IdentityProvider provider) {
        return new OAuthSettings(clientId, clientSecret, tokenEndpointAuthMethod, issuer, clientMetadataUrl, scopes,
                clientName, value, clientKey, dpop, presented, provider);
    }

    /** The client authenticates with {@code private_key_jwt} assertions signed by {@code key}. */
    public OAuthSettings withClientKey(SigningKey key) {
        return new OAuthSettings(clientId, clientSecret, key == null ? tokenEndpointAuthMethod : "private_key_jwt", issuer,
                clientMetadataUrl, scopes, clientName, grant, key, dpop, assertion, identityProvider);
    }

    public OAuthSettings withDpop(Dpop value) {
        return new OAuthSettings(clientId, clientSecret, tokenEndpointAuthMethod, issuer, clientMetadataUrl, scopes,
                clientName, grant, clientKey, value, assertion, identityProvider);
    }

    /** Secrets are never shown. */
    @Override
    public String toString() {
        return "OAuthSettings[clientId=" + clientId + ", secret=" + (clientSecret == null ? "none" : "***")
                + ", tokenEndpointAuthMethod=" + tokenEndpointAuthMethod + ", issuer=" + issuer + ", clientMetadataUrl="
                + clientMetadataUrl + ", scopes=" + scopes + ", grant=" + grant + ", clientKey=" + clientKey
                + ", dpop=" + dpop + ", assertion=" + (assertion == null ? "none" : "***") + ", identityProvider="
                + identityProvider + "]";
    }
}

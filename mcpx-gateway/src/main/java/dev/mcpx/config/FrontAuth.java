package dev.mcpx.config;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * {@code mcpx.auth}: the HTTP front as an OAuth protected resource. Hosts present JWT access
 * tokens from the team's authorization server; mcpx checks them itself (signature against the
 * server's published keys, issuer, audience, expiry) and never forwards them upstream.
 *
 * @param issuer       the authorization server's issuer identifier, named in the resource metadata and required as {@code iss}
 * @param resource     the URL hosts reach {@code /mcp} at (RFC 8707 resource, the {@code aud} a token must carry);
 *                     empty: the address the front binds, which only a loopback bind may leave out
 * @param audiences    further {@code aud} values accepted, for servers that issue a fixed API identifier
 * @param jwksUri      where the signing keys are; empty: the {@code jwks_uri} of the issuer's metadata
 * @param profileClaim the claim whose value is the profile a token is served; empty: tokens choose none
 * @param scopes       scopes every token must carry, published as {@code scopes_supported} and in challenges
 */
public record FrontAuth(String issuer, Optional<URI> resource, List<String> audiences, Optional<URI> jwksUri,
                        Optional<String> profileClaim, List<String> scopes) {

    public FrontAuth {
        audiences = List.copyOf(audiences);
        scopes = List.copyOf(scopes);
    }
}

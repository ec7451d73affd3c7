package dev.mcpx.auth;

import java.net.URI;

/**
 * The user's part of the authorization code flow: a user agent opens the authorization URL, the
 * user approves, and the authorization server redirects to {@link #redirectUri()}.
 */
public interface AuthorizationStep {

    /** Where the authorization server sends the user agent back (registered with the client). */
    URI redirectUri();

    /**
     * Has the user approve at {@code authorizationUrl}; returns the URI the authorization server
     * redirected to (with {@code code}, {@code state}, and perhaps {@code iss} or {@code error}).
     *
     * @throws dev.mcpx.protocol.NeedsLoginException when the user did not finish in time
     */
    URI authorize(URI authorizationUrl);
}

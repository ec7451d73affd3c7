package dev.mcpx.protocol;

import java.util.regex.Pattern;

/**
 * An HTTP upstream refused a request for its credentials: 401 (none, or no longer valid), or
 * 403 with {@code error="insufficient_scope"} (valid, but too narrow). Carries the challenge and
 * the {@code Authorization} the request went with, so the credentials are renewed once for all
 * the requests that were refused the same token.
 */
public final class AuthorizationRequiredException extends McpException {

    private static final Pattern USE_DPOP_NONCE = Pattern.compile("(?i)\\berror\\s*=\\s*\"?use_dpop_nonce\\b");

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String challenge;
    private final transient String sentAuthorization;
    private final String dpopNonce;

    /**
     * @param challenge         the {@code WWW-Authenticate} value, or null
     * @param sentAuthorization the {@code Authorization} header the refused request carried, or null
     * @param dpopNonce         a {@code DPoP-Nonce} the upstream sent with the refusal, or null
     */
    public AuthorizationRequiredException(int status, String challenge, String sentAuthorization, String dpopNonce) {
        super("upstream answered HTTP " + status + (status == 403 ? " (insufficient scope)" : " (authorization required)"),
                null);
        this.status = status;
        this.challenge = challenge;
        this.sentAuthorization = sentAuthorization;
        this.dpopNonce = dpopNonce;
    }

    public int status() {
        return status;
    }

    public String challenge() {
        return challenge;
    }

    public String sentAuthorization() {
        return sentAuthorization;
    }

    public String dpopNonce() {
        return dpopNonce;
    }

    /**
     * Whether this is a 401 asking the request's DPoP proof to carry a fresh nonce
     * ({@code error="use_dpop_nonce"} with a {@code DPoP-Nonce}, RFC 9449 section 9): the same
     * token, retried with that nonce, is expected to pass.
     */
    public boolean asksForDpopNonce() {
        return status == 401 && dpopNonce != null && challenge != null && USE_DPOP_NONCE.matcher(challenge).find();
    }

    /** Whether the request was sent with credentials (a 401 then means they expired or were revoked). */
    public boolean carriedCredentials() {
        return sentAuthorization != null;
    }

    @Override
    public JsonRpcError toError() {
        return JsonRpcError.of(ErrorCodes.UPSTREAM_UNAVAILABLE, getMessage());
    }
}

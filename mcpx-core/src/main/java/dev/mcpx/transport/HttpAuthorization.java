package dev.mcpx.transport;

import dev.mcpx.protocol.AuthorizationRequiredException;
import java.net.URI;
import java.util.Map;

/**
 * How an HTTP upstream's requests are authorized (an OAuth client, in {@code dev.mcpx.auth}).
 * The transport asks it for the headers of each request it sends and reports a refusal as
 * {@link AuthorizationRequiredException}; the client's recovery decides to {@link #renew}.
 */
public interface HttpAuthorization {

    /** No authorization beyond the endpoint's configured headers. */
    HttpAuthorization NONE = new HttpAuthorization() {
        @Override
        public Map<String, String> headers(String httpMethod, URI uri) {
            return Map.of();
        }

        @Override
        public void renew(AuthorizationRequiredException refused) {
            throw refused;
        }
    };

    /** The headers that authorize one request ({@code Authorization}, and {@code DPoP} for a bound token); empty for none yet. */
    Map<String, String> headers(String httpMethod, URI uri);

    /**
     * Obtains credentials the refused request may succeed with (refresh, authorize, step up),
     * once for all the requests refused the same credentials; returns when a retry is worth it,
     * throws the reason when not (for example {@code NeedsLoginException}).
     */
    void renew(AuthorizationRequiredException refused);

    /**
     * The upstream refused a DPoP proof for want of a fresh nonce ({@code use_dpop_nonce}, RFC 9449
     * section 9; {@link AuthorizationRequiredException#asksForDpopNonce()}): keep its nonce for the
     * next proofs. Returns whether a retry can carry it (false: this authorization makes no proofs).
     */
    default boolean adoptNonce(AuthorizationRequiredException refused) {
        return false;
    }

    /**
     * An answer of the upstream, a successful one included, carried {@code DPoP-Nonce}: the server
     * rotated its nonce (RFC 9449 section 8.2), and the next proofs carry the new one instead of
     * costing a refused request each.
     */
    default void nonceOffered(String nonce) {
    }
}

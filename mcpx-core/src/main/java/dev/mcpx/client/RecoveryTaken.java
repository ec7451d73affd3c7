package dev.mcpx.client;

/**
 * A recovery one request got at the client's choke point, as told to the request's
 * {@link RequestOptions#recoveries()} listener (for metrics and the audit log, outside the library).
 */
public enum RecoveryTaken {
    /** Sent again as it was: it never left (its connection was replaced while it waited). */
    RETRY("retry"),
    /** The upstream forgot the session: re-initialized, then retried (Phase 1). */
    REINITIALIZE("reinitialize"),
    /** Its response was lost and a repeat is harmless: sent once more with a new id (Phase 2). */
    REISSUE("reissue"),
    /** Its response was lost and a repeat was not known to be harmless: the outcome is unknown. */
    REISSUE_DECLINED("reissue_declined"),
    /** A header mismatch or a version the upstream corrected: tools refreshed or version adopted, then retried. */
    CORRECTION("correction"),
    /** The upstream was redeployed in the other era: switched, then retried. */
    ERA_SWITCH("era_switch"),
    /** The upstream refused its OAuth token (401, or 403 for a scope): credentials renewed, then retried. */
    TOKEN_REFRESH("token_refresh"),
    /** The upstream wanted a fresh DPoP nonce in the request's proof (RFC 9449): retried with it. */
    DPOP_NONCE("dpop_nonce");

    private final String label;

    RecoveryTaken(String label) {
        this.label = label;
    }

    /** The lower-case name metrics and logs use. */
    public String label() {
        return label;
    }
}

package dev.mcpx.protocol;

/**
 * A legacy upstream no longer knows the session a request was sent with (HTTP 404, or the 400
 * that real servers answer for an unknown session). The request was rejected before it ran.
 */
public final class SessionExpiredException extends McpException {

    private static final long serialVersionUID = 1L;

    private final String sessionId;
    private final int status;

    public SessionExpiredException(String sessionId, int status, String body) {
        super("session " + redact(sessionId) + " expired (HTTP " + status + ")" + (body == null || body.isBlank() ? "" : ": " + abbreviate(body)), null);
        this.sessionId = sessionId;
        this.status = status;
    }

    /** The session id the failed request was sent with. */
    public String sessionId() {
        return sessionId;
    }

    public int status() {
        return status;
    }

    @Override
    public JsonRpcError toError() {
        return JsonRpcError.of(ErrorCodes.UPSTREAM_UNAVAILABLE, "upstream session expired: " + getMessage());
    }

    /** A session id is a credential: logs and messages show only enough of it to tell sessions apart. */
    public static String redact(String sessionId) {
        if (sessionId == null) {
            return "(none)";
        }
        return sessionId.length() <= 8 ? "…" : sessionId.substring(0, 4) + "…";
    }

    static String abbreviate(String text) {
        String oneLine = text.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }
}

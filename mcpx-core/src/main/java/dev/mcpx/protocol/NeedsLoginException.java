package dev.mcpx.protocol;

/**
 * An upstream wants an OAuth authorization that only its user can give (no token, or one that
 * can no longer be refreshed), and this client may not ask the user now. The message says why;
 * the embedding program says how to log in.
 */
public final class NeedsLoginException extends McpException {

    private static final long serialVersionUID = 1L;

    public NeedsLoginException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public JsonRpcError toError() {
        return JsonRpcError.of(ErrorCodes.UPSTREAM_UNAVAILABLE, getMessage());
    }
}

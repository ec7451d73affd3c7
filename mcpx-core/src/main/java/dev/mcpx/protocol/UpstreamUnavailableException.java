package dev.mcpx.protocol;

/** The upstream cannot be reached: its process exited, the connection was refused, it is down. */
public final class UpstreamUnavailableException extends McpException {

    private static final long serialVersionUID = 1L;

    private final boolean unreachable;

    private UpstreamUnavailableException(String message, Throwable cause, boolean unreachable) {
        super(message, cause);
        this.unreachable = unreachable;
    }

    public UpstreamUnavailableException(String message, Throwable cause) {
        this(message, cause, false);
    }

    public UpstreamUnavailableException(String message) {
        this(message, null);
    }

    /** No connection could be made (refused, or its TLS handshake failed): the message never left. */
    public static UpstreamUnavailableException unreachable(String message, Throwable cause) {
        return new UpstreamUnavailableException(message, cause, true);
    }

    /**
     * Whether the message never reached the upstream because no connection could be made, so
     * sending it again once the upstream is back is safe.
     */
    public boolean unreachable() {
        return unreachable;
    }

    @Override
    public JsonRpcError toError() {
        return JsonRpcError.of(ErrorCodes.UPSTREAM_UNAVAILABLE, getMessage());
    }
}

package dev.mcpx.protocol;

/** The upstream cannot be reached: its process exited, the connection was refused, it is down. */
public final class UpstreamUnavailableException extends McpException {

    private static final long serialVersionUID = 1L;

    public UpstreamUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public UpstreamUnavailableException(String message) {
        this(message, null);
    }

    @Override
    public JsonRpcError toError() {
        return JsonRpcError.of(ErrorCodes.UPSTREAM_UNAVAILABLE, getMessage());
    }
}

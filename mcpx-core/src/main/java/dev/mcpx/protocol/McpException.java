package dev.mcpx.protocol;

/**
 * A request that failed, as something a caller can act on. Each subtype maps to exactly one
 * JSON-RPC error, which is what the gateway answers a host with.
 */
public abstract sealed class McpException extends RuntimeException
        permits McpErrorException, SessionExpiredException, StreamLostException,
        UpstreamUnavailableException, RequestTimeoutException, RequestCancelledException,
        HttpStatusException, AuthorizationRequiredException, NeedsLoginException {

    private static final long serialVersionUID = 1L;

    protected McpException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The JSON-RPC error a host receives for this failure. */
    public abstract JsonRpcError toError();
}

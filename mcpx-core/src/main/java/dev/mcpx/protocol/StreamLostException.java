package dev.mcpx.protocol;

/**
 * The stream that was to carry a request's response ended without it (EOF, reset, empty body).
 * On a modern connection the request may or may not have run on the server.
 */
public final class StreamLostException extends McpException {

    private static final long serialVersionUID = 1L;

    private final transient RequestId requestId;

    public StreamLostException(RequestId requestId, String detail, Throwable cause) {
        super("response stream for request " + requestId + " ended without a response" + (detail == null ? "" : ": " + detail), cause);
        this.requestId = requestId;
    }

    public RequestId requestId() {
        return requestId;
    }

    @Override
    public JsonRpcError toError() {
        return JsonRpcError.of(ErrorCodes.STREAM_LOST, getMessage());
    }
}

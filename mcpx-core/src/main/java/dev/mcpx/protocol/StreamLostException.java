package dev.mcpx.protocol;

/**
 * The stream that was to carry a request's response ended without it (EOF, reset, empty body).
 * The request may or may not have run on the server.
 *
 * <p>{@link #noResponse()} tells the case where nothing of the response came at all: the POST
 * failed before its status line, typically on a kept-alive connection the server closed as it
 * restarted or idled out. The server may still have read and run the message before it went
 * away, so this is no proof that it did not.
 */
public final class StreamLostException extends McpException {

    private static final long serialVersionUID = 1L;

    private final transient RequestId requestId;
    private final boolean noResponse;

    public StreamLostException(RequestId requestId, String detail, Throwable cause) {
        this(requestId, false, "response stream for request " + requestId + " ended without a response"
                + (detail == null ? "" : ": " + detail), cause);
    }

    private StreamLostException(RequestId requestId, boolean noResponse, String message, Throwable cause) {
        super(message, cause);
        this.requestId = requestId;
        this.noResponse = noResponse;
    }

    /**
     * A POST that got nothing back: its connection failed before the response's status line.
     *
     * @param requestId the request it carried, or null for a notification or a response
     * @param what      what was sent, for the message (a method, or "response to 7")
     */
    public static StreamLostException noResponse(RequestId requestId, String what, String upstream, Throwable cause) {
        return new StreamLostException(requestId, true, "no response to " + what
                + (requestId == null ? "" : " (request " + requestId + ")") + " from " + upstream
                + ": the connection closed before a status line" + (cause == null ? "" : " (" + cause + ")"), cause);
    }

    /** The request whose response was lost; null when a notification or a response got no answer. */
    public RequestId requestId() {
        return requestId;
    }

    /** True when nothing of the response arrived (no status line); false when a response began and broke. */
    public boolean noResponse() {
        return noResponse;
    }

    @Override
    public JsonRpcError toError() {
        return JsonRpcError.of(ErrorCodes.STREAM_LOST, getMessage());
    }
}

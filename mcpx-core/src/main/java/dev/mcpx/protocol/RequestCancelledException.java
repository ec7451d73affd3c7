package dev.mcpx.protocol;

/** The caller cancelled the request before its response arrived. */
public final class RequestCancelledException extends McpException {

    private static final long serialVersionUID = 1L;

    public RequestCancelledException(String reason) {
        super(reason == null ? "request cancelled" : "request cancelled: " + reason, null);
    }

    @Override
    public JsonRpcError toError() {
        return JsonRpcError.of(ErrorCodes.REQUEST_CANCELLED, getMessage());
    }
}

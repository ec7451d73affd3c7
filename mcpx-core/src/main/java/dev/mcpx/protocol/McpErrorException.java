package dev.mcpx.protocol;

/** The peer answered the request with a JSON-RPC error. */
public final class McpErrorException extends McpException {

    private static final long serialVersionUID = 1L;

    private final transient JsonRpcError error;

    public McpErrorException(JsonRpcError error) {
        super(error.code() + ": " + error.message(), null);
        this.error = error;
    }

    public JsonRpcError error() {
        return error;
    }

    public int code() {
        return error.code();
    }

    @Override
    public JsonRpcError toError() {
        return error;
    }
}

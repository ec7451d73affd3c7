package dev.mcpx.protocol;

/** An HTTP upstream answered with a status that is neither success nor a recognised MCP error. */
public final class HttpStatusException extends McpException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String body;

    public HttpStatusException(int status, String body) {
        super("upstream answered HTTP " + status + (body == null || body.isBlank() ? "" : ": " + SessionExpiredException.abbreviate(body)), null);
        this.status = status;
        this.body = body == null ? "" : body;
    }

    public int status() {
        return status;
    }

    public String body() {
        return body;
    }

    @Override
    public JsonRpcError toError() {
        return JsonRpcError.of(ErrorCodes.UPSTREAM_UNAVAILABLE, getMessage());
    }
}

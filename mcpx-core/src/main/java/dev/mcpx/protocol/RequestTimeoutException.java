package dev.mcpx.protocol;

import java.time.Duration;

/** No response arrived within the request's timeout; the request was cancelled upstream. */
public final class RequestTimeoutException extends McpException {

    private static final long serialVersionUID = 1L;

    public RequestTimeoutException(String method, Duration timeout) {
        super(method + " got no response within " + timeout.toMillis() + " ms", null);
    }

    @Override
    public JsonRpcError toError() {
        return JsonRpcError.of(ErrorCodes.REQUEST_TIMEOUT, getMessage());
    }
}

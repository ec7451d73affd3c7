package dev.mcpx.testkit.legacy;

/** A JSON-RPC error the fake answers a request with. */
final class RpcError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;

    RpcError(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    int code() {
        return code;
    }
}

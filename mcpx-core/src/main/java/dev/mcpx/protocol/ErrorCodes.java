package dev.mcpx.protocol;

/** JSON-RPC and MCP error codes mcpx sends or acts on. */
public final class ErrorCodes {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;

    /** 2025-11-25 and earlier: resource not found (2026-07-28 uses -32602; both accepted). */
    public static final int RESOURCE_NOT_FOUND_LEGACY = -32002;
    /** 2025-11-25 only: URL-mode elicitation required. */
    public static final int URL_ELICITATION_REQUIRED = -32042;

    /** 2026-07-28: HTTP headers disagree with the body, or a required header is missing. */
    public static final int HEADER_MISMATCH = -32020;
    /** 2026-07-28: the request needs a client capability the client did not declare. */
    public static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
    /** 2026-07-28: the requested protocol version is not supported; data.supported lists them. */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    /** Implementation-defined range used by mcpx for its own failures (legacy sub-range). */
    public static final int UPSTREAM_UNAVAILABLE = -32000;
    public static final int REQUEST_TIMEOUT = -32001;
    public static final int STREAM_LOST = -32003;
    public static final int REQUEST_CANCELLED = -32004;
    /** The host already has as many calls in flight as the gateway allows one host. */
    public static final int TOO_MANY_CALLS = -32005;

    private ErrorCodes() {
    }

    /** Codes that only a modern (2026-07-28) server sends: their presence proves the era. */
    public static boolean isModernOnly(int code) {
        return code == HEADER_MISMATCH || code == MISSING_REQUIRED_CLIENT_CAPABILITY
                || code == UNSUPPORTED_PROTOCOL_VERSION;
    }
}

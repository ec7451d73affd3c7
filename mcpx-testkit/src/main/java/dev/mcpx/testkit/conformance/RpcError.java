package dev.mcpx.testkit.conformance;

import tools.jackson.databind.JsonNode;

/** A JSON-RPC error a fixture or a validation step answers with. */
record RpcError(int code, String message, JsonNode data) {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /** 2025-11-25: resources/read of an unknown URI. */
    static final int RESOURCE_NOT_FOUND = -32002;
    static final int HEADER_MISMATCH = -32020;
    static final int MISSING_CLIENT_CAPABILITY = -32021;
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    static RpcError of(int code, String message) {
        return new RpcError(code, message, null);
    }

    /** The HTTP status a modern (2026-07-28) server answers this error with. */
    int httpStatus() {
        return switch (code) {
            case METHOD_NOT_FOUND -> 404;
            case INTERNAL_ERROR -> 500;
            default -> 400;
        };
    }

    RpcException exception() {
        return new RpcException(this);
    }

    /** Unwinds a fixture to the transport, which answers with the error. */
    static final class RpcException extends RuntimeException {
        private final RpcError error;

        RpcException(RpcError error) {
            super(error.message(), null, false, false);
            this.error = error;
        }

        RpcError error() {
            return error;
        }
    }
}

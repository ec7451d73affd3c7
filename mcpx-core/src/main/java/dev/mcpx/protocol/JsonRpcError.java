package dev.mcpx.protocol;

import tools.jackson.databind.JsonNode;

/** The {@code error} member of a JSON-RPC error response. {@code data} may be null. */
public record JsonRpcError(int code, String message, JsonNode data) {

    public JsonRpcError {
        message = message == null ? "" : message;
    }

    public static JsonRpcError of(int code, String message) {
        return new JsonRpcError(code, message, null);
    }

    @Override
    public String toString() {
        return code + " " + message + (data == null ? "" : " " + data);
    }
}

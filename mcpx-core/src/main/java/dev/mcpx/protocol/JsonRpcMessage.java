package dev.mcpx.protocol;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One JSON-RPC 2.0 message: the closed set of four kinds. Params and results are kept as JSON
 * trees so that fields mcpx does not know pass through untouched.
 */
public sealed interface JsonRpcMessage {

    /** A request expects exactly one response with the same id. {@code params} may be null. */
    record Request(RequestId id, String method, ObjectNode params) implements JsonRpcMessage {
        public Request {
            requireNonNull(id, "id");
            requireNonNull(method, "method");
        }

        public Request withId(RequestId newId) {
            return new Request(newId, method, params);
        }

        public Request withParams(ObjectNode newParams) {
            return new Request(id, method, newParams);
        }
    }

    /** A notification has no id and gets no response. {@code params} may be null. */
    record Notification(String method, ObjectNode params) implements JsonRpcMessage {
        public Notification {
            requireNonNull(method, "method");
        }
    }

    /** A successful response. {@code result} is any JSON value, usually an object. */
    record Result(RequestId id, JsonNode result) implements JsonRpcMessage {
        public Result {
            requireNonNull(id, "id");
            requireNonNull(result, "result");
        }
    }

    /** An error response; {@code id} is null when the request's id could not be read. */
    record ErrorResponse(RequestId id, JsonRpcError error) implements JsonRpcMessage {
        public ErrorResponse {
            requireNonNull(error, "error");
        }
    }

    private static void requireNonNull(Object value, String what) {
        if (value == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
    }
}

package dev.mcpx.front.http;

import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.RequestId;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Whole (non-streamed) HTTP answers: a JSON-RPC message, an error with a status, or nothing. */
final class Replies {

    private static final JsonRpcCodec CODEC = new JsonRpcCodec();

    private Replies() {
    }

    static void json(Response response, Callback callback, int status, JsonRpcMessage message, String... headers) {
        response.setStatus(status);
        response.getHeaders().put("Content-Type", "application/json");
        for (int i = 0; i + 1 < headers.length; i += 2) {
            response.getHeaders().put(headers[i], headers[i + 1]);
        }
        Content.Sink.write(response, true, CODEC.encode(message), callback);
    }

    static void error(Response response, Callback callback, int status, RequestId id, JsonRpcError error) {
        // a refusal can come before the request's body has arrived; Jetty then closes the connection
        // after the answer, and a client not told so reuses it and loses its next request
        if (!response.getRequest().consumeAvailable()) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        json(response, callback, status, new ErrorResponse(id, error));
    }

    static void accepted(Response response, Callback callback) {
        response.setStatus(202);
        callback.succeeded();
    }

    static void text(Response response, Callback callback, int status, String contentType, String body, String... headers) {
        response.setStatus(status);
        response.getHeaders().put("Content-Type", contentType);
        for (int i = 0; i + 1 < headers.length; i += 2) {
            response.getHeaders().put(headers[i], headers[i + 1]);
        }
        Content.Sink.write(response, true, body, callback);
    }
}

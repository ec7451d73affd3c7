package dev.mcpx.front.http;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.MetaKeys;
import java.util.List;
import org.eclipse.jetty.http.HttpFields;
import tools.jackson.databind.node.ObjectNode;

/**
 * W3C trace context sent as HTTP headers ({@code traceparent}, {@code tracestate},
 * {@code baggage}) counts as if it were in the request's {@code _meta}, where 2026-07-28 puts
 * it and where the rest of mcpx reads it; a {@code traceparent} already in {@code _meta} wins,
 * since it names this one message rather than the HTTP request carrying it.
 */
final class TraceHeaders {

    private static final List<String> KEYS = List.of("traceparent", "tracestate", "baggage");

    private TraceHeaders() {
    }

    static JsonRpcMessage intoMeta(JsonRpcMessage hostMessage, HttpFields headers) {
        String traceparent = headers.get("traceparent");
        if (traceparent == null || !(hostMessage instanceof Request hostRequest)
                || Json.text(Json.objectAt(hostRequest.params(), MetaKeys.META), "traceparent") != null) {
            return hostMessage;
        }
        ObjectNode params = hostRequest.params() == null ? Json.object() : hostRequest.params().deepCopy();
        ObjectNode meta = Json.objectAt(params, MetaKeys.META);
        if (meta == null) {
            meta = params.putObject(MetaKeys.META);
        }
        for (String key : KEYS) {
            String value = headers.get(key);
            if (value != null) {
                meta.put(key, value);
            } else {
                meta.remove(key);
            }
        }
        return new Request(hostRequest.id(), hostRequest.method(), params);
    }
}

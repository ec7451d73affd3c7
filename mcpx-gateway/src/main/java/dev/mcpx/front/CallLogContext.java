package dev.mcpx.front;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.MetaKeys;
import java.util.regex.Pattern;
import org.slf4j.MDC;

/**
 * Puts the host request's id, and the trace id of a W3C {@code traceparent} in its
 * {@code _meta} (else, with traces on, of the trace mcpx started), into the logging context of
 * the thread answering it, so every line logged about the call names it: {@code requestId}, {@code traceId}, and {@code call} (both, for the
 * text format).
 */
final class CallLogContext implements AutoCloseable {

    static final String REQUEST_ID = "requestId";
    static final String TRACE_ID = "traceId";
    static final String CALL = "call";
    private static final Pattern TRACEPARENT = Pattern.compile("[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}");

    private final String previousRequest;
    private final String previousTrace;
    private final String previousCall;

    private CallLogContext(Request hostRequest) {
        previousRequest = MDC.get(REQUEST_ID);
        previousTrace = MDC.get(TRACE_ID);
        previousCall = MDC.get(CALL);
        String requestId = hostRequest.id() == null ? null : hostRequest.id().toString();
        String traceId = traceId(Json.text(Json.objectAt(hostRequest.params(), MetaKeys.META), "traceparent"));
        put(REQUEST_ID, requestId);
        put(TRACE_ID, traceId);
        put(CALL, "request " + requestId + (traceId == null ? "" : " trace " + traceId));
    }

    static CallLogContext enter(Request hostRequest) {
        return new CallLogContext(hostRequest);
    }

    /** The trace mcpx records the request in, when the host named none (with traces on, mcpx starts one). */
    void traced(String traceId) {
        if (traceId != null && MDC.get(TRACE_ID) == null) {
            put(TRACE_ID, traceId);
            put(CALL, MDC.get(CALL) + " trace " + traceId);
        }
    }

    static String traceId(String traceparent) {
        if (traceparent == null) {
            return null;
        }
        var matcher = TRACEPARENT.matcher(traceparent.strip());
        return matcher.matches() && !matcher.group(1).equals("0".repeat(32)) ? matcher.group(1) : null;
    }

    private static void put(String key, String value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }

    @Override
    public void close() {
        put(REQUEST_ID, previousRequest);
        put(TRACE_ID, previousTrace);
        put(CALL, previousCall);
    }
}

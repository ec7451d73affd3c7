package dev.mcpx.telemetry;

import dev.mcpx.client.RecoveryTaken;
import dev.mcpx.front.HostObserver;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import java.net.URI;
import tools.jackson.databind.node.ObjectNode;

/**
 * Spans for host requests (SERVER) and the calls mcpx sends upstream for them (CLIENT). Written
 * without OpenTelemetry types, so a gateway without {@code mcpx.telemetry} never loads the SDK:
 * {@link #OFF} costs a call nothing.
 */
sealed interface Tracing extends AutoCloseable permits Tracing.Off, OtlpTracing {

    Tracing OFF = new Off();

    /** No spans: what every method's default does. */
    record Off() implements Tracing {
    }

    /**
     * {@code hostRequest} begins on this thread; the trace context in its {@code _meta} is the
     * parent. Until the handle hears the answer, calls routed on this thread are its children.
     */
    default HostObserver.Answering server(Request hostRequest, Era era, String networkTransport, String hostSession) {
        return HostObserver.Answering.NONE;
    }

    /** One call to an upstream, a child of the host request answered on this thread. */
    default ClientSpan client(UpstreamCall call) {
        return ClientSpan.NONE;
    }

    /** Spans lost: the queue was full or the collector did not take them. */
    default long dropped() {
        return 0;
    }

    @Override
    default void close() {
    }

    /** What a CLIENT span is named and described by; {@code address} null for stdio, {@code protocolVersion} null before it connected. */
    record UpstreamCall(String upstream, String transport, URI address, String protocolVersion, String method,
                        String target) {
    }

    /** A call to an upstream being traced. */
    interface ClientSpan {

        ClientSpan NONE = new ClientSpan() {
        };

        /** Sets the upstream request's {@code _meta} trace context to this span's, so the upstream joins the trace. */
        default void propagate(ObjectNode upstreamRequest) {
        }

        default void recovered(RecoveryTaken recovery) {
        }

        /** {@code errorType} empty when it succeeded; {@code message} says what failed (null: nothing). */
        default void ended(String errorType, String message) {
        }
    }
}

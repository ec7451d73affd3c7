package dev.mcpx.telemetry;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A collector's OTLP/HTTP trace receiver on a loopback port of the system's choosing: it
 * decodes each {@code POST /v1/traces} with the OpenTelemetry protocol's own classes and keeps
 * the spans, or, when told to refuse, answers 400 as a collector does to what it will not take.
 */
final class OtlpReceiver implements AutoCloseable {

    /** One received span, its ids in lower-case hex as W3C {@code traceparent} writes them. */
    record ReceivedSpan(String traceId, String spanId, String parentSpanId, String name, Span.SpanKind kind,
                        Map<String, String> attributes, List<String> events, Map<String, String> resource,
                        io.opentelemetry.proto.trace.v1.Status status) {

        String attribute(String key) {
            return attributes.get(key);
        }
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<Map<String, List<String>>> headers = new CopyOnWriteArrayList<>();
    private volatile boolean refusing;

    private OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/traces", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                byte[] body = in.readAllBytes();
                headers.add(Map.copyOf(exchange.getRequestHeaders()));
                if (refusing) {
                    exchange.sendResponseHeaders(400, -1);
                    return;
                }
                keep(ExportTraceServiceRequest.parseFrom(body));
                byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    static OtlpReceiver start() throws IOException {
        return new OtlpReceiver();
    }

    /** Answers every export with 400 from now on. */
    OtlpReceiver refusing() {
        refusing = true;
        return this;
    }

    /** The collector's base address, as an operator writes it in {@code mcpx.telemetry.endpoint}. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    Optional<ReceivedSpan> span(Predicate<ReceivedSpan> which) {
        return spans.stream().filter(which).findFirst();
    }

    /** The headers of each export request received, names as the JDK's server spells them. */
    List<Map<String, List<String>>> requestHeaders() {
        return List.copyOf(headers);
    }

    private void keep(ExportTraceServiceRequest request) {
        HexFormat hex = HexFormat.of();
        for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
            Map<String, String> resource = values(resourceSpans.getResource().getAttributesList());
            for (ScopeSpans scope : resourceSpans.getScopeSpansList()) {
                for (Span span : scope.getSpansList()) {
                    List<String> events = new ArrayList<>();
                    span.getEventsList().forEach(event -> events.add(event.getName()));
                    spans.add(new ReceivedSpan(hex.formatHex(span.getTraceId().toByteArray()),
                            hex.formatHex(span.getSpanId().toByteArray()), hex.formatHex(span.getParentSpanId().toByteArray()),
                            span.getName(), span.getKind(), values(span.getAttributesList()), List.copyOf(events), resource,
                            span.getStatus()));
                }
            }
        }
    }

    private static Map<String, String> values(List<KeyValue> attributes) {
        return attributes.stream().collect(Collectors.toMap(KeyValue::getKey, attribute -> {
            var value = attribute.getValue();
            return value.hasIntValue() ? Long.toString(value.getIntValue()) : value.getStringValue();
        }, (a, b) -> b));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

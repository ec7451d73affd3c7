package dev.mcpx.telemetry;

import dev.mcpx.client.RecoveryTaken;
import dev.mcpx.config.TelemetryOptions;
import dev.mcpx.front.HostObserver;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporterBuilder;
import io.opentelemetry.sdk.common.InternalTelemetryVersion;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.slf4j.bridge.SLF4JBridgeHandler;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Tracing} with the OpenTelemetry SDK: spans named and described as the MCP semantic
 * conventions say, batched in a bounded queue and sent over OTLP/HTTP (protobuf) on the SDK's
 * own thread, so a collector that is slow or down never holds a call: what does not fit is
 * dropped and counted.
 */
final class OtlpTracing implements Tracing {

    static final int QUEUE = 2048;
    private static final int BATCH = 512;
    private static final Duration BATCH_DELAY = Duration.ofSeconds(2);
    private static final Duration EXPORT_TIMEOUT = Duration.ofSeconds(10);

    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("mcp.method.name");
    private static final AttributeKey<String> TOOL = AttributeKey.stringKey("gen_ai.tool.name");
    private static final AttributeKey<String> PROMPT = AttributeKey.stringKey("gen_ai.prompt.name");
    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    private static final AttributeKey<String> RESOURCE_URI = AttributeKey.stringKey("mcp.resource.uri");
    private static final AttributeKey<String> SESSION = AttributeKey.stringKey("mcp.session.id");
    private static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("jsonrpc.request.id");
    private static final AttributeKey<String> PROTOCOL_VERSION = AttributeKey.stringKey("mcp.protocol.version");
    private static final AttributeKey<String> TRANSPORT = AttributeKey.stringKey("network.transport");
    private static final AttributeKey<String> NETWORK_PROTOCOL = AttributeKey.stringKey("network.protocol.name");
    private static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    private static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<String> RPC_ERROR_CODE = AttributeKey.stringKey("rpc.response.status_code");
    private static final AttributeKey<String> UPSTREAM = AttributeKey.stringKey("mcpx.upstream");

    private static final Pattern JSON_RPC_CODE = Pattern.compile("-?[0-9]+");

    private static final TextMapPropagator PROPAGATOR = TextMapPropagator.composite(
            W3CTraceContextPropagator.getInstance(), W3CBaggagePropagator.getInstance());

    /** Reads {@code traceparent}, {@code tracestate} and {@code baggage} from a request's {@code _meta}. */
    private static final TextMapGetter<ObjectNode> META = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(ObjectNode meta) {
            return meta == null ? List.of() : meta.propertyNames();
        }

        @Override
        public String get(ObjectNode meta, String key) {
            return Json.text(meta, key);
        }
    };

    /** The SDK's java.util.logging logger, held: JUL keeps loggers weakly, and would forget the handler. */
    private static final java.util.logging.Logger SDK_LOG = java.util.logging.Logger.getLogger("io.opentelemetry");

    static {
        // its lines (an export that failed, throttled by the SDK) go to mcpx's log, in its format, not raw to stderr
        SDK_LOG.setUseParentHandlers(false);
        SDK_LOG.addHandler(new SLF4JBridgeHandler());
    }

    private final AtomicBoolean closed = new AtomicBoolean();
    private final SdkTracerProvider provider;
    private final Tracer tracer;
    private final SdkDrops drops = new SdkDrops();
    private final SdkMeterProvider selfTelemetry;

    private OtlpTracing(TelemetryOptions.Traces options, String version, int queue) {
        selfTelemetry = SdkMeterProvider.builder().registerMetricReader(drops).build();
        OtlpHttpSpanExporterBuilder exporter = OtlpHttpSpanExporter.builder()
                .setEndpoint(options.endpoint().toString()).setTimeout(EXPORT_TIMEOUT)
                .setMeterProvider(selfTelemetry).setInternalTelemetryVersion(InternalTelemetryVersion.LATEST);
        options.headers().forEach(exporter::addHeader);
        provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(
                        AttributeKey.stringKey("service.name"), "mcpx", AttributeKey.stringKey("service.version"), version))))
                .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(options.sampling())))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter.build())
                        .setMaxQueueSize(queue).setMaxExportBatchSize(Math.min(BATCH, queue))
                        .setScheduleDelay(BATCH_DELAY).setExporterTimeout(EXPORT_TIMEOUT)
                        .setMeterProvider(selfTelemetry).setInternalTelemetryVersion(InternalTelemetryVersion.LATEST)
                        .build())
                .build();
        tracer = provider.get("dev.mcpx.gateway", version);
    }

    /** Starts the SDK: only a gateway with {@code mcpx.telemetry} calls this, so only it loads OpenTelemetry. */
    static Tracing start(TelemetryOptions.Traces options, String version) {
        return start(options, version, QUEUE);
    }

    /** With a queue of {@code queue} spans (tests fill a small one). */
    static Tracing start(TelemetryOptions.Traces options, String version, int queue) {
        return new OtlpTracing(options, version, queue);
    }

    @Override
    public HostObserver.Answering server(Request hostRequest, Era era, String networkTransport, String hostSession) {
        ObjectNode meta = Json.objectAt(hostRequest.params(), MetaKeys.META);
        Context parent = PROPAGATOR.extract(Context.root(), meta, META);
        String method = hostRequest.method();
        String target = Json.text(hostRequest.params(), Methods.RESOURCES_READ.equals(method) ? "uri" : "name");
        SpanBuilder builder = tracer.spanBuilder(spanName(method, target)).setSpanKind(SpanKind.SERVER).setParent(parent)
                .setAttribute(TRANSPORT, networkTransport);
        describe(builder, method, target);
        if (hostRequest.id() != null) {
            builder.setAttribute(REQUEST_ID, hostRequest.id().toString());
        }
        if (era == Era.MODERN) {
            String version = Json.text(meta, MetaKeys.PROTOCOL_VERSION);
            builder.setAttribute(PROTOCOL_VERSION, version != null ? version : ProtocolVersion.LATEST_MODERN.wire());
        }
        if (hostSession != null) {
            builder.setAttribute(SESSION, hostSession);
        }
        if ("tcp".equals(networkTransport)) {
            builder.setAttribute(NETWORK_PROTOCOL, "http");
        }
        Span span = builder.startSpan();
        Scope scope = parent.with(span).makeCurrent();
        return new HostObserver.Answering() {
            @Override
            public String traceId() {
                return span.getSpanContext().isValid() ? span.getSpanContext().getTraceId() : null;
            }

            @Override
            public void answered(JsonRpcMessage answer) {
                ended(span, scope, answer);
            }
        };
    }

    /** Ends a SERVER span with its answer's outcome, and leaves its scope. */
    private static void ended(Span span, Scope scope, JsonRpcMessage answer) {
        try {
            switch (answer) {
                case ErrorResponse error -> failed(span, Integer.toString(error.error().code()), error.error().message());
                case Result result when "tool_error".equals(ErrorTypes.ofResult(result.result())) ->
                        failed(span, "tool_error", null);
                case null -> failed(span, "internal", null);
                default -> {
                }
            }
            span.end();
        } finally {
            scope.close();
        }
    }

    @Override
    public ClientSpan client(UpstreamCall call) {
        SpanBuilder builder = tracer.spanBuilder(spanName(call.method(), call.target())).setSpanKind(SpanKind.CLIENT)
                .setParent(Context.current()).setAttribute(UPSTREAM, call.upstream())
                .setAttribute(TRANSPORT, "stdio".equals(call.transport()) ? "pipe" : "tcp");
        describe(builder, call.method(), call.target());
        if (call.protocolVersion() != null) {
            builder.setAttribute(PROTOCOL_VERSION, call.protocolVersion());
        }
        if (call.address() != null) {
            builder.setAttribute(NETWORK_PROTOCOL, "http").setAttribute(SERVER_ADDRESS, call.address().getHost())
                    .setAttribute(SERVER_PORT, (long) port(call.address()));
        }
        Span span = builder.startSpan();
        return new ClientSpan() {
            @Override
            public void propagate(ObjectNode upstreamRequest) {
                ObjectNode meta = Json.objectAt(upstreamRequest, MetaKeys.META);
                if (meta == null) {
                    meta = upstreamRequest.putObject(MetaKeys.META);
                }
                // the host's context is this span's parent: the upstream hears of this span instead
                for (String key : List.of("traceparent", "tracestate", "baggage")) {
                    meta.remove(key);
                }
                PROPAGATOR.inject(Context.current().with(span), meta, ObjectNode::put);
            }

            @Override
            public void recovered(RecoveryTaken recovery) {
                span.addEvent("mcpx." + recovery.label());
            }

            @Override
            public void ended(String errorType, String message) {
                if (!errorType.isEmpty()) {
                    failed(span, errorType, message);
                }
                span.end();
            }
        };
    }

    private static void describe(SpanBuilder builder, String method, String target) {
        builder.setAttribute(METHOD, method);
        if (target == null) {
            return;
        }
        switch (method) {
            case Methods.TOOLS_CALL -> builder.setAttribute(TOOL, target).setAttribute(OPERATION, "execute_tool");
            case Methods.PROMPTS_GET -> builder.setAttribute(PROMPT, target);
            case Methods.RESOURCES_READ -> builder.setAttribute(RESOURCE_URI, target);
            default -> {
            }
        }
    }

    /** {@code {mcp.method.name} {target}} for a tool or prompt; a resource URI stays out of the name (cardinality). */
    private static String spanName(String method, String target) {
        boolean named = target != null && (Methods.TOOLS_CALL.equals(method) || Methods.PROMPTS_GET.equals(method));
        return named ? method + " " + target : method;
    }

    /** {@code errorType} is a JSON-RPC error's code, {@code tool_error}, or what else failed ({@link ErrorTypes}). */
    private static void failed(Span span, String errorType, String message) {
        span.setAttribute(ERROR_TYPE, errorType);
        if (JSON_RPC_CODE.matcher(errorType).matches()) {
            span.setAttribute(RPC_ERROR_CODE, errorType);
        }
        span.setStatus(StatusCode.ERROR, message == null ? "" : message);
    }

    private static int port(URI address) {
        return address.getPort() >= 0 ? address.getPort() : "https".equals(address.getScheme()) ? 443 : 80;
    }

    @Override
    public long dropped() {
        return drops.dropped();
    }

    /** Sends what is queued (bounded: a collector that is down does not hold the exit). */
    @Override
    public void close() {
        if (closed.getAndSet(true)) {
            return;
        }
        provider.shutdown().join(5, TimeUnit.SECONDS);
        selfTelemetry.shutdown();
    }
}

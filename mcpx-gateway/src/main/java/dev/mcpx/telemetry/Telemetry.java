package dev.mcpx.telemetry;

import dev.mcpx.client.RecoveryTaken;
import dev.mcpx.config.TelemetryOptions;
import dev.mcpx.front.HostObserver;
import dev.mcpx.pool.Pool;
import dev.mcpx.pool.UpstreamState;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.router.CallObserver;
import dev.mcpx.router.HostCall;
import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The gateway's metrics: {@code mcp.server.operation.duration} for every host request,
 * {@code mcp.client.operation.duration} for every call routed to an upstream (seconds, with the
 * MCP semantic conventions' attributes as Prometheus labels), and mcpx's own {@code mcpx_}
 * counters and gauges. What the pool counts already is read from its status at scrape time, so
 * a call costs two histogram observations (without exemplars unless it traces), a gauge up and
 * down, and nothing for the recoveries it did not need. With {@code mcpx.telemetry} it also
 * traces each host request and each call to an upstream ({@link Tracing}).
 */
public final class Telemetry implements HostObserver, CallObserver, AutoCloseable {

    /** The bucket bounds the MCP semantic conventions advise for operation durations, in seconds. */
    static final double[] DURATION_BUCKETS = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300};

    /** Sessions last from seconds to days: the operation buckets, then up to a day. */
    static final double[] SESSION_BUCKETS = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800,
        3600, 14400, 86400};

    static final String UPSTREAM = "mcpx_upstream";

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Histogram server;
    private final Histogram client;
    private final Histogram serverSessions;
    private final Histogram clientSessions;
    private final Counter recoveries;
    private final Counter refusals;
    private final Gauge inFlight;
    private final AuditLog audit;
    private final boolean metrics;
    private final Tracing tracing;
    private final boolean exemplars;
    private final RecentEvents recent = new RecentEvents();
    private final Map<String, AtomicReference<LongSupplier>> counted = new ConcurrentHashMap<>();
    private volatile String frontTransport = "pipe";

    /**
     * {@code heldCalls}: modern hosts' calls to legacy upstreams held between MRTR rounds now;
     * {@code metrics} false records none (the audit log still gets its lines).
     */
    public Telemetry(Pool pool, IntSupplier heldCalls, AuditLog audit, boolean metrics) {
        this(pool, heldCalls, audit, metrics, Optional.empty(), "");
    }

    /** As above, tracing to the collector {@code traces} names (none: no span, and OpenTelemetry is never loaded). */
    public Telemetry(Pool pool, IntSupplier heldCalls, AuditLog audit, boolean metrics,
                     Optional<TelemetryOptions.Traces> traces, String version) {
        this.audit = audit;
        this.metrics = metrics;
        this.tracing = traces.isPresent() ? OtlpTracing.start(traces.get(), version) : Tracing.OFF;
        this.exemplars = traces.isPresent();
        server = exemplars(Histogram.builder()).name("mcp_server_operation_duration").unit(Unit.SECONDS)
                .help("Host requests mcpx answered (mcp.server.operation.duration)")
                .labelNames("mcp_method_name", "gen_ai_tool_name", "gen_ai_prompt_name", "error_type",
                        "mcp_protocol_version", "network_transport")
                .classicOnly().classicUpperBounds(DURATION_BUCKETS).register(registry);
        client = exemplars(Histogram.builder()).name("mcp_client_operation_duration").unit(Unit.SECONDS)
                .help("Host requests mcpx sent to an upstream, as its client (mcp.client.operation.duration)")
                .labelNames(UPSTREAM, "mcp_method_name", "gen_ai_tool_name", "gen_ai_prompt_name", "error_type",
                        "mcp_protocol_version", "network_transport")
                .classicOnly().classicUpperBounds(DURATION_BUCKETS).register(registry);
        serverSessions = exemplars(Histogram.builder()).name("mcp_server_session_duration").unit(Unit.SECONDS)
                .help("Host sessions that ended: a legacy HTTP session, a stdio host's connection (mcp.server.session.duration)")
                .labelNames("mcp_protocol_version", "network_transport")
                .classicOnly().classicUpperBounds(SESSION_BUCKETS).register(registry);
        clientSessions = exemplars(Histogram.builder()).name("mcp_client_session_duration").unit(Unit.SECONDS)
                .help("Upstream sessions that ended: a client closed or replaced, a legacy session re-initialized"
                        + " (mcp.client.session.duration)")
                .labelNames(UPSTREAM, "mcpx_transport", "mcp_protocol_version")
                .classicOnly().classicUpperBounds(SESSION_BUCKETS).register(registry);
        pool.onSessionEnded((upstream, transport, spoken, nanos) -> {
            if (metrics) {
                clientSessions.labelValues(upstream, transport, spoken == null ? "" : spoken).observe(nanos / 1e9);
            }
        });
        recoveries = exemplars(Counter.builder()).name("mcpx_call_recoveries")
                .help("Recoveries host calls got: retry, reinitialize, reissue, reissue_declined (outcome unknown), "
                        + "correction, era_switch")
                .labelNames(UPSTREAM, "recovery").register(registry);
        refusals = exemplars(Counter.builder()).name("mcpx_limit_refusals")
                .help("Host requests refused by an operator's limit").labelNames("limit").register(registry);
        // no exemplars on a gauge, traced or not: OpenMetrics exposes them on counters and histograms only
        inFlight = Gauge.builder().name("mcpx_calls_in_flight").help("Host calls waiting for their upstream now")
                .labelNames(UPSTREAM).withoutExemplars().register(registry);
        GaugeWithCallback.builder().name("mcpx_held_calls")
                .help("Modern hosts' calls to legacy upstreams held between MRTR rounds")
                .callback(callback -> callback.call(heldCalls.getAsInt())).register(registry);
        GaugeWithCallback.builder().name("mcpx_upstream_state")
                .help("1 for each upstream's current state (starting, up, degraded, restarting, failed, disabled, stopped)")
                .labelNames(UPSTREAM, "mcpx_transport", "state")
                .callback(callback -> pool.status().forEach(status -> {
                    for (UpstreamState state : UpstreamState.values()) {
                        callback.call(state.label().equals(status.state()) ? 1 : 0, status.name(), status.transport(),
                                state.label());
                    }
                })).register(registry);
        perUpstream(pool, "mcpx_upstream_requests", "Requests the upstream's clients sent, whoever asked",
                UpstreamStatus::requests);
        perUpstream(pool, "mcpx_upstream_errors", "Requests to the upstream that failed", UpstreamStatus::errors);
        perUpstream(pool, "mcpx_reinitializations", "Sessions replaced after the upstream forgot one (Phase 1)",
                UpstreamStatus::reinitializations);
        perUpstream(pool, "mcpx_reissues", "Messages sent once more because their response was lost (Phase 2)",
                UpstreamStatus::reissues);
        perUpstream(pool, "mcpx_era_switches", "Switches to the other era after the upstream was redeployed in it",
                UpstreamStatus::eraChanges);
        if (traces.isPresent()) {
            CounterWithCallback.builder().name("mcpx_spans_dropped")
                    .help("Spans not sent: the collector refused them or was unreachable (mcpx.telemetry)")
                    .callback(callback -> callback.call(tracing.dropped())).register(registry);
        }
        perUpstream(pool, "mcpx_upstream_restarts",
                "Reconnections after the connection died: for stdio, child processes restarted",
                UpstreamStatus::restarts);
    }

    /**
     * An exemplar names the trace of a bucket's latest observation: without tracing there is none,
     * and looking for one loaded OpenTelemetry's context at the first call and cost every observation.
     */
    private Histogram.Builder exemplars(Histogram.Builder builder) {
        return exemplars ? builder : builder.withoutExemplars();
    }

    private Counter.Builder exemplars(Counter.Builder builder) {
        return exemplars ? builder : builder.withoutExemplars();
    }

    private void perUpstream(Pool pool, String name, String help, ToLongFunction<UpstreamStatus> value) {
        CounterWithCallback.builder().name(name).help(help).labelNames(UPSTREAM, "mcpx_transport")
                .callback(callback -> pool.status().forEach(status ->
                        callback.call(value.applyAsLong(status), status.name(), status.transport())))
                .register(registry);
    }

    /** The host-facing transport, as {@code network.transport} names it: {@code pipe} (stdio) or {@code tcp} (HTTP). */
    public void front(String networkTransport) {
        this.frontTransport = networkTransport;
    }

    /** A counter a front keeps itself (the legacy front's resumable streams), read at scrape time. */
    public void count(String name, String help, LongSupplier value) {
        AtomicReference<LongSupplier> current = counted.computeIfAbsent(name, key -> {
            AtomicReference<LongSupplier> slot = new AtomicReference<>();
            CounterWithCallback.builder().name(name).help(help)
                    .callback(callback -> callback.call(slot.get().getAsLong())).register(registry);
            return slot;
        });
        // a front started again on this gateway (tests do) counts from its own store
        current.set(value);
    }

    /** The metrics in the format {@code accept} asks for: OpenMetrics when it names it, else Prometheus text; empty when off. */
    public Optional<Scrape> scrape(String accept) {
        return metrics ? Optional.of(Scrape.of(registry.scrape(), accept)) : Optional.empty();
    }

    /** What {@code /status} adds to an upstream's entry: its recent recoveries and last failed call. */
    public void describe(String upstream, ObjectNode entry) {
        recent.describe(upstream, entry);
    }

    @Override
    public void close() {
        tracing.close();
        audit.close();
    }

    @Override
    public Answering answering(Request hostRequest, Era era, String hostSession) {
        return tracing.server(hostRequest, era, frontTransport, hostSession);
    }

    @Override
    public void answered(Request hostRequest, Era era, JsonRpcMessage answer, long nanos) {
        if (!metrics) {
            return;
        }
        String errorType = switch (answer) {
            case ErrorResponse error -> Integer.toString(error.error().code());
            case Result result -> ErrorTypes.ofResult(result.result());
            default -> ErrorTypes.NONE;
        };
        String name = Json.text(hostRequest.params(), "name");
        server.labelValues(hostRequest.method(), toolName(hostRequest.method(), name), promptName(hostRequest.method(), name),
                errorType, era == Era.MODERN ? ProtocolVersion.LATEST_MODERN.wire() : "", frontTransport)
                .observe(nanos / 1e9);
    }

    @Override
    public void sessionEnded(String protocolVersion, long nanos) {
        if (metrics) {
            serverSessions.labelValues(protocolVersion, frontTransport).observe(nanos / 1e9);
        }
    }

    @Override
    public void refused(String limit) {
        if (!metrics) {
            return;
        }
        refusals.labelValues(limit).inc();
    }

    @Override
    public Routed routing(String upstream, String transport, URI address, String protocolVersion, HostCall call,
                          String target) {
        Tracing.ClientSpan span = tracing.client(new Tracing.UpstreamCall(upstream, transport, address, protocolVersion,
                call.method(), target));
        return new RoutedCall(upstream, transport, protocolVersion == null ? "" : protocolVersion, call, target,
                System.nanoTime(), span);
    }

    private static String toolName(String method, String name) {
        return Methods.TOOLS_CALL.equals(method) && name != null ? name : "";
    }

    private static String promptName(String method, String name) {
        return Methods.PROMPTS_GET.equals(method) && name != null ? name : "";
    }

    /** One call to an upstream: in flight until it ends, then one observation and, when configured, one audit line. */
    private final class RoutedCall implements Routed {

        private final String upstream;
        private final String transport;
        private final String protocolVersion;
        private final HostCall call;
        private final String target;
        private final long start;
        private final Tracing.ClientSpan span;
        /** This upstream's in-flight gauge, looked up once for both ends of the call; null with metrics off. */
        private final GaugeDataPoint upstreamInFlight;
        /** Usually none: a list only once a recovery happened (copied on add: a held call's rounds run on other threads). */
        private volatile List<String> taken = List.of();

        RoutedCall(String upstream, String transport, String protocolVersion, HostCall call, String target, long start,
                   Tracing.ClientSpan span) {
            this.span = span;
            this.upstream = upstream;
            this.transport = transport;
            this.protocolVersion = protocolVersion;
            this.call = call;
            this.target = target;
            this.start = start;
            upstreamInFlight = metrics ? inFlight.labelValues(upstream) : null;
            if (upstreamInFlight != null) {
                upstreamInFlight.inc();
            }
        }

        @Override
        public void sending(ObjectNode upstreamRequest) {
            span.propagate(upstreamRequest);
        }

        @Override
        public void recovered(RecoveryTaken recovery) {
            span.recovered(recovery);
            synchronized (this) {
                List<String> more = new ArrayList<>(taken);
                more.add(recovery.label());
                taken = List.copyOf(more);
            }
            if (metrics) {
                recoveries.labelValues(upstream, recovery.label()).inc();
            }
            recent.recovered(upstream, recovery.label(), call.method(), target);
        }

        @Override
        public void answered(JsonNode result) {
            ended(ErrorTypes.ofResult(result), result, null);
        }

        @Override
        public void failed(McpException error) {
            String errorType = ErrorTypes.of(error);
            recent.failed(upstream, call.method(), target, errorType, error.toError().message());
            ended(errorType, null, error);
        }

        private void ended(String errorType, JsonNode result, McpException error) {
            long nanos = System.nanoTime() - start;
            if (metrics) {
                upstreamInFlight.dec();
                client.labelValues(upstream, call.method(), toolName(call.method(), target),
                        promptName(call.method(), target), errorType, protocolVersion,
                        "stdio".equals(transport) ? "pipe" : "tcp").observe(nanos / 1e9);
            }
            span.ended(errorType, error == null ? null : error.toError().message());
            audit.write(new AuditLog.Entry(upstream, call, target, nanos, errorType, taken, result, error));
        }
    }
}

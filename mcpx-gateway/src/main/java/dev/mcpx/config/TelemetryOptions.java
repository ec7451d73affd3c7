package dev.mcpx.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the operator asked of telemetry: {@code mcpx.metrics} (default true: {@code /metrics}
 * and the {@code --metrics} listener), {@code mcpx.audit} (none by default),
 * {@code mcpx.logFormat} ({@code text}, the default, or {@code json}) and {@code mcpx.telemetry}
 * (traces exported over OTLP; none by default).
 */
public record TelemetryOptions(boolean metrics, Optional<Audit> audit, boolean jsonLogs, Optional<Traces> traces) {

    public static final TelemetryOptions DEFAULTS = new TelemetryOptions(true, Optional.empty(), false);

    /** Without traces. */
    public TelemetryOptions(boolean metrics, Optional<Audit> audit, boolean jsonLogs) {
        this(metrics, audit, jsonLogs, Optional.empty());
    }

    /**
     * {@code mcpx.audit}: one JSON line per host request that reached an upstream, appended to
     * {@code file} (empty: stderr); the call's {@code arguments} and the upstream's {@code results}
     * only when asked for.
     */
    public record Audit(Optional<Path> file, boolean arguments, boolean results) {
    }

    /**
     * {@code mcpx.telemetry}: spans sent over OTLP/HTTP (protobuf) to {@code endpoint}, the
     * traces URL ({@code .../v1/traces}), with {@code headers} (e.g. a collector's API key);
     * {@code sampling} is the ratio of new traces kept (0 to 1), a host's sampled flag decides
     * for the traces it started.
     */
    public record Traces(URI endpoint, Map<String, String> headers, double sampling) {

        public Traces {
            headers = Map.copyOf(headers);
        }

        /** Header values are often credentials: only their names are shown. */
        @Override
        public String toString() {
            return "Traces[endpoint=" + endpoint + ", headers=" + headers.keySet() + ", sampling=" + sampling + "]";
        }
    }
}

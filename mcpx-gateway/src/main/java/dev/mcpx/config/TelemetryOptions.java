package dev.mcpx.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What the operator asked of telemetry: {@code mcpx.metrics} (default true: {@code /metrics}
 * and the {@code --metrics} listener), {@code mcpx.audit} (none by default) and
 * {@code mcpx.logFormat} ({@code text}, the default, or {@code json}).
 */
public record TelemetryOptions(boolean metrics, Optional<Audit> audit, boolean jsonLogs) {

    public static final TelemetryOptions DEFAULTS = new TelemetryOptions(true, Optional.empty(), false);

    /**
     * {@code mcpx.audit}: one JSON line per host request that reached an upstream, appended to
     * {@code file} (empty: stderr); the call's {@code arguments} and the upstream's {@code results}
     * only when asked for.
     */
    public record Audit(Optional<Path> file, boolean arguments, boolean results) {
    }
}

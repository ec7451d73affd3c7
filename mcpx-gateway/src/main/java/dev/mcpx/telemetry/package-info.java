/**
 * Telemetry: Prometheus metrics (the OpenTelemetry MCP semantic-convention histograms and mcpx's
 * own counters), OpenTelemetry traces exported over OTLP when configured, and the audit log. It
 * is entered through the seams the other layers expose ({@link dev.mcpx.front.HostObserver},
 * {@link dev.mcpx.router.CallObserver}, a request's recoveries) and reads the pool's status for
 * what is counted there already; no other layer depends on the metrics or tracing libraries.
 */
package dev.mcpx.telemetry;

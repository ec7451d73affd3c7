package dev.mcpx.bench;

import dev.mcpx.client.McpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What metrics cost a call: two gateways side by side in front of the same legacy HTTP upstream,
 * one with metrics on (the default) and one with {@code mcpx.metrics: false}, driven in
 * interleaved rounds; the gateway's CPU time (from /proc) over the round divided by its calls.
 */
final class TelemetryBench {

    /** One set-up's result: median CPU microseconds per call over the rounds, and its calls/s. */
    record Cost(String setup, int callers, int rounds, double cpuMicrosPerCall, double callsPerSecond) {
    }

    private TelemetryBench() {
    }

    static List<Cost> metricsOnVsOff(BenchEnv env, int callers, int rounds, Duration window) throws Exception {
        try (FastUpstream legacy = FastUpstream.start(FastUpstream.Era.LEGACY, 1)) {
            var on = new GatewayConfigFile().http("legacy", legacy.url()).write(env.logDir(), "metrics-on.json");
            var off = new GatewayConfigFile().http("legacy", legacy.url()).option("metrics", false)
                    .write(env.logDir(), "metrics-off.json");
            try (McpxGateway metrics = McpxGateway.start(env, "mcpx-metrics-on", on, Map.of());
                 McpxGateway plain = McpxGateway.start(env, "mcpx-metrics-off", off, Map.of())) {
                List<McpClient> onHosts = List.of(HostClients.legacyHost("metrics-on", metrics.url()));
                List<McpClient> offHosts = List.of(HostClients.legacyHost("metrics-off", plain.url()));
                try {
                    // unrecorded: both JITs warm up first
                    round(metrics, onHosts, callers, window);
                    round(plain, offHosts, callers, window);
                    List<double[]> onRounds = new ArrayList<>();
                    List<double[]> offRounds = new ArrayList<>();
                    for (int i = 0; i < rounds; i++) {
                        onRounds.add(round(metrics, onHosts, callers, window));
                        offRounds.add(round(plain, offHosts, callers, window));
                        System.err.printf("telemetry round %d: metrics on %.1f us/call, off %.1f us/call%n", i + 1,
                                onRounds.getLast()[0], offRounds.getLast()[0]);
                    }
                    return List.of(cost("metrics on", callers, onRounds), cost("metrics off", callers, offRounds));
                } finally {
                    onHosts.forEach(McpClient::close);
                    offHosts.forEach(McpClient::close);
                }
            }
        }
    }

    /** CPU microseconds per call and calls per second of one round. */
    private static double[] round(McpxGateway gateway, List<McpClient> hosts, int callers, Duration window)
            throws InterruptedException {
        double before = ProcStat.cpuMillis(gateway.process().pid());
        LoadResult result = LoadDriver.run("telemetry", callers, Duration.ZERO, window,
                index -> HostClients.echo(hosts.get(index % hosts.size()), "legacy__echo"));
        double after = ProcStat.cpuMillis(gateway.process().pid());
        return new double[] {(after - before) * 1000 / Math.max(1, result.calls()), result.callsPerSecond()};
    }

    private static Cost cost(String setup, int callers, List<double[]> rounds) {
        return new Cost(setup, callers, rounds.size(), Stats.median(rounds.stream().mapToDouble(r -> r[0]).toArray()),
                Stats.median(rounds.stream().mapToDouble(r -> r[1]).toArray()));
    }
}

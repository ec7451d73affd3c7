package dev.mcpx.bench;

import dev.mcpx.client.McpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What metrics and traces cost a call: three gateways side by side in front of the same legacy
 * HTTP upstream, one with metrics on (the default), one with {@code mcpx.metrics: false}, and
 * one with metrics on and every call traced ({@code mcpx.telemetry}, sampling 1) into a
 * collector's endpoint that takes every export, driven in interleaved rounds; the gateway's CPU
 * time (from /proc) over the round divided by its calls.
 */
final class TelemetryBench {

    /** One set-up's result: median CPU microseconds per call over the rounds, and its calls/s. */
    record Cost(String setup, int callers, int rounds, double cpuMicrosPerCall, double callsPerSecond) {
    }

    static final String METRICS_ON = "metrics on";
    static final String OFF = "metrics off";
    static final String TRACED = "metrics on, every call traced";

    private TelemetryBench() {
    }

    static List<Cost> costPerCall(BenchEnv env, int callers, int rounds, Duration window) throws Exception {
        try (FastUpstream legacy = FastUpstream.start(FastUpstream.Era.LEGACY, 1); OtlpSink collector = OtlpSink.start()) {
            var on = new GatewayConfigFile().http("legacy", legacy.url()).write(env.logDir(), "metrics-on.json");
            var off = new GatewayConfigFile().http("legacy", legacy.url()).option("metrics", false)
                    .write(env.logDir(), "metrics-off.json");
            var traced = new GatewayConfigFile().http("legacy", legacy.url()).traces(collector.endpoint(), 1.0)
                    .write(env.logDir(), "traced.json");
            try (McpxGateway metrics = McpxGateway.start(env, "mcpx-metrics-on", on, Map.of());
                 McpxGateway plain = McpxGateway.start(env, "mcpx-metrics-off", off, Map.of());
                 McpxGateway tracing = McpxGateway.start(env, "mcpx-traced", traced, Map.of())) {
                List<McpxGateway> gateways = List.of(metrics, plain, tracing);
                List<List<McpClient>> hosts = List.of(List.of(HostClients.legacyHost("metrics-on", metrics.url())),
                        List.of(HostClients.legacyHost("metrics-off", plain.url())),
                        List.of(HostClients.legacyHost("traced", tracing.url())));
                try {
                    // unrecorded: the JITs warm up first
                    for (int g = 0; g < gateways.size(); g++) {
                        round(gateways.get(g), hosts.get(g), callers, window);
                    }
                    List<List<double[]>> results = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
                    for (int i = 0; i < rounds; i++) {
                        for (int g = 0; g < gateways.size(); g++) {
                            results.get(g).add(round(gateways.get(g), hosts.get(g), callers, window));
                        }
                        System.err.printf("telemetry round %d: metrics on %.1f us/call, off %.1f us/call, traced %.1f us/call%n",
                                i + 1, results.get(0).getLast()[0], results.get(1).getLast()[0], results.get(2).getLast()[0]);
                    }
                    System.err.printf("telemetry: the collector took %d exports, %d bytes%n", collector.exports(),
                            collector.bytes());
                    return List.of(cost(METRICS_ON, callers, results.get(0)), cost(OFF, callers, results.get(1)),
                            cost(TRACED, callers, results.get(2)));
                } finally {
                    hosts.forEach(list -> list.forEach(McpClient::close));
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

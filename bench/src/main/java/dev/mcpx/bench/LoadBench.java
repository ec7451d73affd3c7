package dev.mcpx.bench;

import dev.mcpx.client.McpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Throughput and latency of {@code tools/call} at N concurrent callers, for every set-up in the
 * same run: direct, through mcpx (legacy HTTP, modern HTTP, stdio upstreams), and through the
 * npm proxies in front of the same stdio upstream. Rounds interleave the set-ups so that noise
 * from the shared machine spreads over all of them; each figure is the median over rounds.
 */
final class LoadBench {

    static final String DIRECT = "direct";
    static final String MCPX = "mcpx";

    /** One way for a host to reach an upstream. */
    record Setup(String via, String upstream, McpClient client, String tool) {
        String name() {
            return via + " / " + upstream;
        }
    }

    private LoadBench() {
    }

    static List<LoadResult> run(BenchEnv env, List<Integer> callerCounts, Set<String> only, int rounds,
                                Duration warmup, Duration window) throws Exception {
        try (FastUpstream legacy = FastUpstream.start(FastUpstream.Era.LEGACY, 1);
             FastUpstream modern = FastUpstream.start(FastUpstream.Era.MODERN, 1)) {
            var config = new GatewayConfigFile().http("legacy", legacy.url()).http("modern", modern.url())
                    .stdio("stdio", env.stdioUpstream()).write(env.logDir(), "load.json");
            try (McpxGateway gateway = McpxGateway.start(env, "mcpx-load", config, Map.of());
                 NodeProxy mcpProxy = NodeProxy.mcpProxy(env);
                 NodeProxy supergateway = NodeProxy.supergateway(env)) {
                List<Setup> setups = List.of(
                        new Setup(DIRECT, "legacy-http", HostClients.legacyHost("direct-legacy", legacy.url()), "echo"),
                        new Setup(MCPX, "legacy-http", HostClients.legacyHost("mcpx-legacy", gateway.url()), "legacy__echo"),
                        new Setup(DIRECT, "modern-http", HostClients.detecting("direct-modern", modern.url()), "echo"),
                        new Setup(MCPX, "modern-http", HostClients.legacyHost("mcpx-modern", gateway.url()), "modern__echo"),
                        new Setup(DIRECT, "stdio", HostClients.stdio("direct-stdio", env.stdioUpstream()), "echo"),
                        new Setup(MCPX, "stdio", HostClients.legacyHost("mcpx-stdio", gateway.url()), "stdio__echo"),
                        new Setup("mcp-proxy", "stdio", HostClients.legacyHost("mcp-proxy", mcpProxy.url()), "echo"),
                        new Setup("supergateway", "stdio", HostClients.legacyHost("supergateway", supergateway.url()), "echo"));
                try {
                    List<Setup> chosen = setups.stream().filter(s -> only.isEmpty() || only.contains(s.via())).toList();
                    return measure(chosen, callerCounts, rounds, warmup, window);
                } finally {
                    setups.forEach(s -> s.client().close());
                }
            }
        }
    }

    private static List<LoadResult> measure(List<Setup> setups, List<Integer> callerCounts, int rounds,
                                            Duration warmup, Duration window) throws InterruptedException {
        // an unrecorded round first: the gateway's and proxies' JITs warm up before anything counts
        for (Setup setup : setups) {
            LoadDriver.run(setup.name(), 32, warmup, window, HostClients.echo(setup.client(), setup.tool()));
        }
        Map<String, List<LoadResult>> byCell = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (int callers : callerCounts) {
                for (Setup setup : setups) {
                    LoadResult result = LoadDriver.run(setup.name(), callers, warmup, window,
                            HostClients.echo(setup.client(), setup.tool()));
                    System.err.printf("round %d  %-28s %4d callers  %9.0f calls/s  p50 %7.2f ms  p99 %7.2f ms  errors %d%n",
                            round, setup.name(), callers, result.callsPerSecond(), result.p50Millis(),
                            result.p99Millis(), result.errors());
                    byCell.computeIfAbsent(setup.name() + "@" + callers, k -> new ArrayList<>()).add(result);
                }
            }
        }
        return byCell.values().stream().map(LoadBench::median).toList();
    }

    /** The round with the median rate stands for the cell; errors add up over all rounds. */
    private static LoadResult median(List<LoadResult> rounds) {
        List<LoadResult> sorted = rounds.stream().sorted(Comparator.comparingDouble(LoadResult::callsPerSecond)).toList();
        LoadResult mid = sorted.get(sorted.size() / 2);
        double p50 = Stats.median(rounds.stream().mapToDouble(LoadResult::p50Millis).toArray());
        double p99 = Stats.median(rounds.stream().mapToDouble(LoadResult::p99Millis).toArray());
        long errors = rounds.stream().mapToLong(LoadResult::errors).sum();
        String firstError = rounds.stream().map(LoadResult::firstError).filter(e -> e != null).findFirst().orElse(null);
        return new LoadResult(mid.setup(), mid.callers(), mid.calls(), errors, mid.callsPerSecond(), p50, p99, firstError);
    }
}

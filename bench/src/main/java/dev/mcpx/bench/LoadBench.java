package dev.mcpx.bench;

import dev.mcpx.client.McpClient;
import java.net.URI;
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

    /**
     * Host sessions per HTTP set-up. mcpx lets one host session have 64 calls in flight
     * (CallLimit), so 128 callers are two hosts of 64, the same for every HTTP set-up.
     */
    static final int HOST_SESSIONS = 2;

    /** One way for hosts to reach an upstream; caller i uses session i mod sessions. */
    record Setup(String via, String upstream, List<McpClient> clients, String tool) {
        String name() {
            return via + " / " + upstream;
        }

        LoadDriver.Call caller(int index) {
            return HostClients.echo(clients.get(index % clients.size()), tool);
        }
    }

    private static List<McpClient> hosts(String name, URI url) {
        List<McpClient> clients = new ArrayList<>();
        for (int i = 0; i < HOST_SESSIONS; i++) {
            clients.add(HostClients.legacyHost(name + "-" + i, url));
        }
        return clients;
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
                        new Setup(DIRECT, "legacy-http", hosts("direct-legacy", legacy.url()), "echo"),
                        new Setup(MCPX, "legacy-http", hosts("mcpx-legacy", gateway.url()), "legacy__echo"),
                        new Setup(DIRECT, "modern-http", List.of(HostClients.detecting("direct-modern-0", modern.url()),
                                HostClients.detecting("direct-modern-1", modern.url())), "echo"),
                        new Setup(MCPX, "modern-http", hosts("mcpx-modern", gateway.url()), "modern__echo"),
                        // one client: a stdio upstream is one process with one peer
                        new Setup(DIRECT, "stdio", List.of(HostClients.stdio("direct-stdio", env.stdioUpstream())), "echo"),
                        new Setup(MCPX, "stdio", hosts("mcpx-stdio", gateway.url()), "stdio__echo"),
                        new Setup("mcp-proxy", "stdio", hosts("mcp-proxy", mcpProxy.url()), "echo"),
                        new Setup("supergateway", "stdio", hosts("supergateway", supergateway.url()), "echo"));
                try {
                    List<Setup> chosen = setups.stream().filter(s -> only.isEmpty() || only.contains(s.via())).toList();
                    return measure(chosen, callerCounts, rounds, warmup, window);
                } finally {
                    setups.forEach(s -> s.clients().forEach(McpClient::close));
                }
            }
        }
    }

    private static List<LoadResult> measure(List<Setup> setups, List<Integer> callerCounts, int rounds,
                                            Duration warmup, Duration window) throws InterruptedException {
        // an unrecorded round first: the gateway's and proxies' JITs warm up before anything counts
        for (Setup setup : setups) {
            LoadDriver.run(setup.name(), 32, warmup, window, setup::caller);
        }
        Map<String, List<LoadResult>> byCell = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (int callers : callerCounts) {
                for (Setup setup : setups) {
                    LoadResult result = LoadDriver.run(setup.name(), callers, warmup, window,
                            setup::caller);
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

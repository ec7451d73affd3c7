package dev.mcpx.bench;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import java.util.Map;

/**
 * Heal time through the gateway. Legacy: the upstream restarts (sessions forgotten, same port);
 * the clock starts when it listens again and stops at the host's first successful call. Modern:
 * the response stream of a read-only tool breaks after the tool ran; the heal cost is that call's
 * time minus a normal call's. The host calls again at once after a failure: no sleeps.
 */
final class HealBench {

    /** Medians over the repetitions, in milliseconds; failures are host calls that failed on the way. */
    record Heal(String what, int repetitions, double healMillis, double normalCallMillis, long failedCalls,
                long reinitializations, long reissues) {
    }

    private static final int WARM_UP_CALLS = 500;

    private HealBench() {
    }

    static Heal legacyRestart(BenchEnv env, int repetitions) throws Exception {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started()) {
            var config = new GatewayConfigFile().http("legacy", upstream.url()).write(env.logDir(), "heal-legacy.json");
            try (McpxGateway gateway = McpxGateway.start(env, "mcpx-heal-legacy", config, Map.of());
                 McpClient host = HostClients.legacyHost("heal-legacy", gateway.url())) {
                double[] heal = new double[repetitions];
                double[] normal = new double[repetitions];
                long failed = 0;
                warm(host, "legacy__echo");
                int initializesBefore = upstream.initializeCount();
                for (int i = 0; i < repetitions; i++) {
                    normal[i] = timedCall(host, "legacy__echo");
                    upstream.restart();
                    long back = System.nanoTime();
                    while (true) {
                        try {
                            call(host, "legacy__echo");
                            break;
                        } catch (RuntimeException e) {
                            failed++;
                        }
                    }
                    heal[i] = (System.nanoTime() - back) / 1e6;
                }
                return new Heal("legacy upstream restart (session lost)", repetitions, Stats.median(heal),
                        Stats.median(normal), failed, upstream.initializeCount() - initializesBefore, 0);
            }
        }
    }

    static Heal modernBrokenStream(BenchEnv env, int repetitions) throws Exception {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start()) {
            var config = new GatewayConfigFile().http("modern", upstream.url()).write(env.logDir(), "heal-modern.json");
            try (McpxGateway gateway = McpxGateway.start(env, "mcpx-heal-modern", config, Map.of());
                 McpClient host = HostClients.legacyHost("heal-modern", gateway.url())) {
                double[] broken = new double[repetitions];
                double[] normal = new double[repetitions];
                long failed = 0;
                warm(host, "modern__read_only_tool");
                int executionsBefore = upstream.executions("read_only_tool");
                for (int i = 0; i < repetitions; i++) {
                    normal[i] = timedCall(host, "modern__read_only_tool");
                    upstream.breakStream("read_only_tool", 1);
                    long start = System.nanoTime();
                    while (true) {
                        try {
                            call(host, "modern__read_only_tool");
                            break;
                        } catch (RuntimeException e) {
                            failed++;
                        }
                    }
                    broken[i] = (System.nanoTime() - start) / 1e6;
                }
                int executions = upstream.executions("read_only_tool") - executionsBefore;
                double normalMedian = Stats.median(normal);
                return new Heal("modern response stream broken (read-only tool re-issued)", repetitions,
                        Stats.median(broken) - normalMedian, normalMedian, failed, 0,
                        executions - 2L * repetitions);
            }
        }
    }

    /** Enough calls for the JIT to compile the call path in both processes before timing one. */
    private static void warm(McpClient host, String tool) {
        for (int i = 0; i < WARM_UP_CALLS; i++) {
            call(host, tool);
        }
    }

    private static double timedCall(McpClient host, String tool) {
        long start = System.nanoTime();
        call(host, tool);
        return (System.nanoTime() - start) / 1e6;
    }

    private static void call(McpClient host, String tool) {
        var result = host.callTool(tool, Json.object().put("text", "heal"), RequestOptions.defaults());
        if (result.path("isError").asBoolean(false)) {
            throw new IllegalStateException("tool error: " + result);
        }
    }
}

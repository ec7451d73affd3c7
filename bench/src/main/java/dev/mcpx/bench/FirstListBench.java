package dev.mcpx.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * From launch to the first answered {@code tools/list} that holds the upstream's tools, over
 * stdio, with one fast stdio upstream: through {@code bin/mcpx serve --stdio} (its defaults, so
 * the AOT cache when there is one) and straight from the upstream, launch by launch in turn.
 */
final class FirstListBench {

    static final String TOOL = "echo";

    /** Medians over launches, milliseconds. */
    record FirstList(int launches, double throughMcpxMillis, double directMillis) {
    }

    private FirstListBench() {
    }

    static FirstList run(BenchEnv env, int launches) throws Exception {
        Path config = new GatewayConfigFile().stdio("stdio", env.stdioUpstream()).write(env.logDir(), "one-stdio.json");
        List<String> mcpx = List.of(env.mcpx().toString(), "serve", "-c", config.toString(), "--stdio");
        double[] through = new double[launches];
        double[] direct = new double[launches];
        for (int i = 0; i < launches; i++) {
            through[i] = firstList(env, mcpx, "stdio__" + TOOL);
            direct[i] = firstList(env, env.stdioUpstream(), TOOL);
        }
        FirstList result = new FirstList(launches, Stats.median(through), Stats.median(direct));
        System.err.printf("first tools/list, one stdio upstream: through mcpx %.0f ms, direct %.0f ms (medians of %d)%n",
                result.throughMcpxMillis(), result.directMillis(), launches);
        return result;
    }

    /** Launch, initialize, initialized, tools/list: milliseconds from launch to a list naming {@code tool}. */
    private static double firstList(BenchEnv env, List<String> command, String tool) throws Exception {
        try (StdioSession session = StdioSession.launch(env, command, Map.of("MCPX_LOG", "WARN"))) {
            session.request(StdioSession.INITIALIZE, 1);
            session.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            String list = session.request("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", 2);
            double millis = (System.nanoTime() - session.launchedNanos()) / 1e6;
            if (!list.contains("\"name\":\"" + tool + "\"")) {
                throw new IllegalStateException("the first tools/list did not name " + tool + ": " + list);
            }
            return millis;
        }
    }
}

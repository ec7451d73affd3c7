package dev.mcpx.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Runs the end-to-end benchmarks (and the JMH ones) and writes docs/benchmarks.md.
 *
 * <pre>
 * bench/run [--sections hop,load,heal,startup,firstlist,scale,redis,telemetry,jmh] [--rounds 3] [--window-ms 2000]
 *           [--warmup-ms 500] [--callers 1,8,32,128] [--setups direct,mcpx] [--upstreams legacy-http,stdio,modern-http]
 *           [--out docs/benchmarks.md]
 * </pre>
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        BenchEnv env = BenchEnv.locate();
        Report report = new Report(options, env);
        // bench/run has just rebuilt the jar: a gateway launched with a stale cache starts without one
        // and trains a new one in the background, beside the first section's measurements
        StartupBench.trainAotIfStale(env);
        if (options.sections().contains("hop")) {
            report.hop(HopBench.run(env, options.rounds(), Duration.ofMillis(options.windowMillis()), options.upstreams()));
        }
        if (options.sections().contains("floor")) {
            report.floor(FloorBench.run(env));
        }
        if (options.sections().contains("load")) {
            report.load(LoadBench.run(env, options.callers(), options.setups(), options.rounds(),
                    Duration.ofMillis(options.warmupMillis()), Duration.ofMillis(options.windowMillis())));
        }
        if (options.sections().contains("heal")) {
            report.heal(List.of(HealBench.legacyRestart(env, 10), HealBench.modernBrokenStream(env, 10)));
        }
        if (options.sections().contains("startup")) {
            report.startup(StartupBench.run(env, 5));
        }
        if (options.sections().contains("firstlist")) {
            report.firstList(FirstListBench.run(env, 5));
        }
        if (options.sections().contains("scale")) {
            report.scale(ScaleBench.inFlight(env, 1000, 2, 2000), ScaleBench.bigCatalogue(env, 10_000, 5));
        }
        if (options.sections().contains("redis")) {
            report.redis(RedisCostBench.run(env, 200, 1000));
        }
        if (options.sections().contains("telemetry")) {
            report.telemetry(TelemetryBench.costPerCall(env, 8, Math.max(3, options.rounds()),
                    Duration.ofMillis(Math.max(3000, options.windowMillis()))));
        }
        if (options.sections().contains("jmh")) {
            report.jmh(JmhSection.run());
        }
        System.out.println(report.markdown());
        if (options.out() != null) {
            report.write(options.out());
            System.err.println("wrote " + options.out());
        }
        System.exit(0);
    }

    /** {@code setups}: the load set-ups to run, by the way they reach the upstream (all when empty). */
    record Options(Set<String> sections, int rounds, long windowMillis, long warmupMillis, List<Integer> callers,
                   Set<String> setups, Set<String> upstreams, Path out, String commandLine) {

        static Options parse(String[] args) {
            Set<String> sections = Set.of("hop", "floor", "load", "heal", "startup", "firstlist", "scale", "redis", "telemetry", "jmh");
            int rounds = 3;
            long window = 2000;
            long warmup = 500;
            List<Integer> callers = List.of(1, 8, 32, 128);
            Set<String> setups = Set.of();
            Set<String> upstreams = Set.of();
            Path out = null;
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--sections" -> sections = Set.of(value.split(","));
                    case "--rounds" -> rounds = Integer.parseInt(value);
                    case "--window-ms" -> window = Long.parseLong(value);
                    case "--warmup-ms" -> warmup = Long.parseLong(value);
                    case "--callers" -> callers = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
                    case "--setups" -> setups = Set.of(value.split(","));
                    case "--upstreams" -> upstreams = Set.of(value.split(","));
                    case "--out" -> out = Path.of(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
                i++;
            }
            List<String> shown = new ArrayList<>(List.of(args));
            int at = shown.indexOf("--out");
            if (at >= 0) {
                shown.subList(at, Math.min(at + 2, shown.size())).clear();
            }
            return new Options(sections, rounds, window, warmup, callers, setups, upstreams, out, String.join(" ", shown));
        }
    }
}

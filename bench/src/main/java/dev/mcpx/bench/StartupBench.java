package dev.mcpx.bench;

import dev.mcpx.client.McpClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Start-up (launch of {@code bin/mcpx serve} to the first answered {@code initialize}, over HTTP
 * and stdio) and resident memory with 10 upstreams, idle and under load, for each way of running
 * the JVM: plain, with a dynamic AppCDS archive, and with a Java 25 AOT cache.
 */
final class StartupBench {

    static final int UPSTREAMS = 10;
    static final String FOOTPRINT_OPTS = "-XX:+UseSerialGC -Xms8m";

    /**
     * How the JVM runs mcpx: environment for bin/mcpx, and the JVM options of a training run
     * over stdio (null: none), or bin/mcpx-aot when {@code aotScript}.
     */
    record JvmMode(String name, Map<String, String> env, String trainingOpts, boolean aotScript) {
    }

    /** Medians over launches, milliseconds and MiB. */
    record Startup(String mode, int launches, double httpMillis, double stdioMillis, double httpCpuMillis,
                   double stdioCpuMillis, double earlyRssMib, double idleRssMib, double idleAnonMib,
                   double loadRssMib, double loadCallsPerSecond, long loadErrors) {
    }

    /** The JVM as bin/mcpx runs it for a user (its AOT cache, trained ahead). */
    static final String LAUNCHER_MODE = "AOT cache (bin/mcpx)";

    private StartupBench() {
    }

    static List<JvmMode> modes(BenchEnv env) {
        Path jsa = env.logDir().resolve("jvm-caches/mcpx.jsa");
        // JVM warnings about an archive go to stderr: stdout carries MCP in stdio mode
        String quiet = " -Xlog:disable -Xlog:all=warning:stderr";
        return List.of(
                new JvmMode("default (no cache)", Map.of("MCPX_AOT", "0", "MCPX_JAVA_OPTS", ""), null, false),
                new JvmMode("AppCDS (dynamic archive)",
                        Map.of("MCPX_AOT", "0", "MCPX_JAVA_OPTS", "-XX:SharedArchiveFile=" + jsa + quiet),
                        "-XX:ArchiveClassesAtExit=" + jsa + quiet, false),
                new JvmMode(LAUNCHER_MODE, Map.of("MCPX_AOT", "1", "MCPX_JAVA_OPTS", ""), null, true),
                // not bin/mcpx's default: a smaller heap to start from and no G1 side tables, for the RSS target
                new JvmMode("AOT cache + " + FOOTPRINT_OPTS, Map.of("MCPX_AOT", "1", "MCPX_JAVA_OPTS", FOOTPRINT_OPTS),
                        null, false));
    }

    static List<Startup> run(BenchEnv env, int launches) throws Exception {
        Files.createDirectories(env.logDir().resolve("jvm-caches"));
        List<FastUpstream> http = new ArrayList<>();
        try {
            GatewayConfigFile file = new GatewayConfigFile();
            for (int i = 1; i <= UPSTREAMS; i++) {
                String name = "u%02d".formatted(i);
                if (i > UPSTREAMS - 2) {
                    file.stdio(name, env.stdioUpstream());
                    continue;
                }
                FastUpstream upstream = FastUpstream.start(i % 2 == 0 ? FastUpstream.Era.MODERN : FastUpstream.Era.LEGACY, 1);
                http.add(upstream);
                file.http(name, upstream.url());
            }
            Path config = file.write(env.logDir(), "ten-upstreams.json");
            List<Startup> results = new ArrayList<>();
            for (JvmMode mode : modes(env)) {
                if (mode.aotScript()) {
                    trainAot(env);
                } else if (mode.trainingOpts() != null) {
                    train(env, config, mode);
                }
                results.add(measure(env, config, mode, launches));
            }
            return results;
        } finally {
            for (FastUpstream upstream : http) {
                upstream.close();
            }
        }
    }

    /** One host session over stdio with the training options; the JVM writes its cache at exit. */
    static void train(BenchEnv env, Path config, JvmMode mode) throws IOException, InterruptedException {
        try (StdioSession session = StdioSession.launch(env, serveStdio(env, config),
                Map.of("MCPX_AOT", "0", "MCPX_JAVA_OPTS", mode.trainingOpts(), "MCPX_LOG", "WARN"))) {
            session.request(StdioSession.INITIALIZE, 1);
            session.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            session.request("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", 2);
            for (int i = 0; i < 50; i++) {
                session.request(("{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":"
                        + "{\"name\":\"u01__echo\",\"arguments\":{\"text\":\"train\"}}}").formatted(3 + i), 3 + i);
            }
            session.finish();
        }
    }

    /**
     * Trains bin/mcpx's AOT cache now when it would use one (Java 25+) and the cache is missing or
     * older than the jar, so every gateway the bench launches starts as a user's second launch does.
     */
    static void trainAotIfStale(BenchEnv env) throws IOException, InterruptedException {
        Path jar = env.root().resolve("mcpx-gateway/target/mcpx.jar");
        Path cache = env.root().resolve("mcpx-gateway/target/mcpx.aot");
        if (Runtime.version().feature() < 25 || "0".equals(System.getenv("MCPX_AOT"))) {
            return;
        }
        if (!Files.exists(cache) || Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(jar)) <= 0) {
            System.err.println("bench: training bin/mcpx's AOT cache before the first gateway starts");
            trainAot(env);
        }
    }

    /** What a user's bin/mcpx does on its own, run in the foreground so the cache is there. */
    static void trainAot(BenchEnv env) throws IOException, InterruptedException {
        Process aot = new ProcessBuilder(env.root().resolve("bin/mcpx-aot").toString())
                .redirectErrorStream(true).redirectOutput(env.logDir().resolve("mcpx-aot.log").toFile()).start();
        if (aot.waitFor() != 0) {
            throw new IllegalStateException("bin/mcpx-aot failed; see " + env.logDir().resolve("mcpx-aot.log"));
        }
    }

    private static Startup measure(BenchEnv env, Path config, JvmMode mode, int launches) throws Exception {
        Map<String, String> vars = new HashMap<>(mode.env());
        vars.put("MCPX_LOG", "WARN");
        double[] httpMillis = new double[launches];
        double[] stdioMillis = new double[launches];
        double[] httpCpu = new double[launches];
        double[] stdioCpu = new double[launches];
        for (int i = 0; i < launches; i++) {
            try (StdioSession session = StdioSession.launch(env, serveStdio(env, config), vars)) {
                session.request(StdioSession.INITIALIZE, 1);
                stdioMillis[i] = (System.nanoTime() - session.launchedNanos()) / 1e6;
                stdioCpu[i] = ProcStat.cpuMillis(session.pid());
            }
            try (McpxGateway gateway = McpxGateway.start(env, "mcpx-startup", config, vars)) {
                httpMillis[i] = gateway.startup().toNanos() / 1e6;
                httpCpu[i] = gateway.cpuMillisAtAnswer();
            }
        }
        double[] memory = memory(env, config, vars);
        System.err.printf("start-up %-26s http %6.0f ms (cpu %5.0f)  stdio %6.0f ms (cpu %5.0f)  rss idle %5.1f MiB (2 s: %5.1f)  load %5.1f MiB%n",
                mode.name(), Stats.median(httpMillis), Stats.median(httpCpu), Stats.median(stdioMillis),
                Stats.median(stdioCpu), memory[0], memory[5], memory[1]);
        return new Startup(mode.name(), launches, Stats.median(httpMillis), Stats.median(stdioMillis),
                Stats.median(httpCpu), Stats.median(stdioCpu), memory[5], memory[0], memory[4], memory[1], memory[2], (long) memory[3]);
    }

    /**
     * RSS 2 s after every upstream is up, then idle: 10 s after (the JVM hands back what its
     * compilers' start-up took at its periodic clean-up, every 5 s), then the peak RSS under 32
     * callers spread over them.
     */
    private static double[] memory(BenchEnv env, Path config, Map<String, String> vars) throws Exception {
        try (McpxGateway gateway = McpxGateway.start(env, "mcpx-memory", config, vars);
             McpClient host = HostClients.legacyHost("memory", gateway.url())) {
            awaitTools(host, UPSTREAMS, Duration.ofSeconds(60));
            Thread.sleep(2000);
            double early = gateway.process().rssMib();
            Thread.sleep(8000);
            double idle = gateway.process().rssMib();
            double idleAnon = gateway.process().anonymousRssMib();
            AtomicBoolean running = new AtomicBoolean(true);
            double[] peak = {idle};
            Thread sampler = Thread.ofPlatform().start(() -> {
                while (running.get()) {
                    peak[0] = Math.max(peak[0], gateway.process().rssMib());
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            AtomicInteger next = new AtomicInteger();
            LoadResult load = LoadDriver.run("memory", 32, Duration.ofMillis(500), Duration.ofSeconds(3), i -> () -> {
                int n = Math.floorMod(next.getAndIncrement(), UPSTREAMS) + 1;
                HostClients.echo(host, "u%02d__echo".formatted(n)).run();
            });
            running.set(false);
            sampler.join();
            return new double[] {idle, peak[0], load.callsPerSecond(), load.errors(), idleAnon, early};
        }
    }

    static void awaitTools(McpClient host, int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (ScaleBench.listAll(host).tools().size() >= count) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the gateway did not list " + count + " tools in " + timeout);
    }

    private static List<String> serveStdio(BenchEnv env, Path config) {
        return List.of(env.mcpx().toString(), "serve", "-c", config.toString(), "--stdio");
    }
}

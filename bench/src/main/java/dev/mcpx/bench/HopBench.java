package dev.mcpx.bench;

import dev.mcpx.client.McpClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one hop through mcpx costs (issue 17), direct and through mcpx in the same run: the
 * gateway's CPU per proxied {@code tools/call} from /proc (robust on a shared machine, where
 * wall time is not), calls/s and p50 at 1 and 16 callers, p50 over the first 100 calls after the
 * gateway started and once warm, and throughput at 32 connections driven by {@code wrk} (a C
 * driver: a Java one saturates first and flatters the ratio).
 */
final class HopBench {

    static final int FIRST_CALLS = 100;
    /** Enough for C2 to have compiled most of the hop (its compiler threads were near idle by 40,000 calls). */
    static final int WARM_UP_CALLS = 40_000;
    static final int WRK_CONNECTIONS = 32;
    /** A host that spawns mcpx over stdio: the set-up's name is this and the upstream's kind. */
    static final String STDIO_HOST = "mcpx --stdio / ";
    /** A file's worth of text each way, where reading and writing JSON shows and a 100-byte call hides it. */
    static final int LARGE_TEXT_CHARS = 32 * 1024;
    static final String LARGE = ", 32 KB of source each way";
    /** The same size as an image or a PDF a tool returns: base64, which needs no escape in JSON. */
    static final String LARGE_BASE64 = ", 32 KB of base64 each way";
    /** Fewer than {@link #WARM_UP_CALLS}: each large call costs about ten small ones, and C1 only compiles. */
    static final int LARGE_WARM_UP_CALLS = 2_000;

    /** One set-up at one caller count; the gateway's figures are NaN for direct set-ups (no gateway). */
    record Cell(String setup, int callers, double callsPerSecond, double p50Millis, double cpuMicrosPerCall,
                double switchesPerCall, long errors) {
    }

    /** p50 of the first 100 calls of a fresh host right after the gateway (or client) started, and once warm. */
    record Latency(String setup, double firstHundredP50Millis, double warmP50Millis) {
    }

    record Result(int rounds, List<Cell> cells, List<Latency> latencies, List<WrkRun.Wrk> wrk, String wrkMissing) {
    }

    private HopBench() {
    }

    /** {@code only}: upstreams to measure (legacy-http, stdio, modern-http), all when empty. */
    static Result run(BenchEnv env, int rounds, Duration window, java.util.Set<String> only) throws Exception {
        String wrk = wrkPath();
        List<List<Cell>> cellRounds = new ArrayList<>();
        List<List<Latency>> latencyRounds = new ArrayList<>();
        List<List<WrkRun.Wrk>> wrkRounds = new ArrayList<>();
        try (FastUpstream legacy = FastUpstream.start(FastUpstream.Era.LEGACY, 1);
             FastUpstream modern = FastUpstream.start(FastUpstream.Era.MODERN, 1)) {
            for (int round = 1; round <= rounds; round++) {
                List<Cell> cells = new ArrayList<>();
                List<Latency> latencies = new ArrayList<>();
                List<WrkRun.Wrk> wrks = new ArrayList<>();
                if (only.isEmpty() || only.contains("legacy-http")) {
                    direct(env, "direct / legacy-http", HostClients.legacyHost("hop-direct-legacy", legacy.url()), window,
                            cells, latencies);
                    if (wrk != null) {
                        wrks.add(WrkRun.run(env, wrk, "direct / legacy-http", legacy.url(), null, "echo", -1, WRK_CONNECTIONS, 5));
                    }
                }
                if (only.isEmpty() || only.contains("stdio")) {
                    direct(env, "direct / stdio", HostClients.stdio("hop-direct-stdio", env.stdioUpstream()), window,
                            cells, latencies);
                }
                for (String upstream : List.of("legacy-http", "stdio", "modern-http")) {
                    if (!only.isEmpty() && !only.contains(upstream)) {
                        continue;
                    }
                    String prefix = upstream.substring(0, upstream.indexOf('-') < 0 ? upstream.length() : upstream.indexOf('-'));
                    Path config = new GatewayConfigFile().http("legacy", legacy.url()).http("modern", modern.url())
                            .stdio("stdio", env.stdioUpstream()).write(env.logDir(), "hop.json");
                    try (McpxGateway gateway = McpxGateway.start(env, "mcpx-hop-" + upstream, config, Map.of())) {
                        String setup = "mcpx / " + upstream;
                        awaitUpstreamsUp(gateway.url());
                        System.err.printf("hop  %-22s gateway cpu %6.0f ms at its first initialize, %6.0f ms with its upstreams up%n",
                                setup, gateway.cpuMillisAtAnswer(), ProcStat.cpuMillis(gateway.process().pid()));
                        McpClient host = HostClients.legacyHost("hop-" + upstream, gateway.url());
                        try {
                            String tool = prefix + "__echo";
                            measure(setup, host, tool, gateway.process().pid(), window, cells, latencies);
                            if (wrk != null && !upstream.equals("modern-http")) {
                                wrks.add(WrkRun.run(env, wrk, setup, gateway.url(), initializeSession(gateway.url()), tool,
                                        gateway.process().pid(), WRK_CONNECTIONS, 5));
                            }
                        } finally {
                            host.close();
                        }
                    }
                }
                if (only.isEmpty() || only.contains("stdio")) {
                    stdioHost(env, "stdio", "stdio", new GatewayConfigFile().stdio("stdio", env.stdioUpstream()), window, cells, latencies);
                    large(env, window, cells, LARGE, largeText());
                    large(env, window, cells, LARGE_BASE64, largeBase64());
                }
                if (only.isEmpty() || only.contains("legacy-http")) {
                    stdioHost(env, "legacy-http", "legacy", new GatewayConfigFile().http("legacy", legacy.url()), window, cells, latencies);
                }
                int done = round;
                cells.forEach(c -> System.err.printf("hop round %d  %-22s %2d callers  %7.0f calls/s  p50 %6.3f ms  cpu %6.1f us/call  %4.1f cs/call%n",
                        done, c.setup(), c.callers(), c.callsPerSecond(), c.p50Millis(), c.cpuMicrosPerCall(), c.switchesPerCall()));
                latencies.forEach(l -> System.err.printf("hop  %-22s first-100 p50 %6.3f ms  warm p50 %6.3f ms%n",
                        l.setup(), l.firstHundredP50Millis(), l.warmP50Millis()));
                wrks.forEach(w -> System.err.printf("hop  wrk %-22s %7.0f calls/s  p50 %6.3f ms  cpu %6.1f us/call  %4.1f cs/call  bad %d%n",
                        w.setup(), w.callsPerSecond(), w.p50Millis(), w.cpuMicrosPerCall(), w.switchesPerCall(), w.badAnswers()));
                cellRounds.add(cells);
                latencyRounds.add(latencies);
                wrkRounds.add(wrks);
            }
        }
        return new Result(rounds, medianCells(cellRounds), medianLatencies(latencyRounds), medianWrk(wrkRounds),
                wrk == null ? "wrk is not installed (apt-get install -y wrk): the 32-connection throughput was not measured" : null);
    }

    /**
     * The set-up most hosts use: the host spawns {@code bin/mcpx serve --stdio} in front of the one
     * upstream {@code name}, of {@code kind}. The gateway's first initialize is answered once its JVM runs, so the
     * first calls may wait for the upstream's start.
     */
    private static void stdioHost(BenchEnv env, String kind, String name, GatewayConfigFile upstream, Duration window, List<Cell> cells,
                                  List<Latency> latencies) throws InterruptedException {
        withStdioHost(env, "hop-stdio-host-" + name + ".json", upstream,
                (host, pid) -> measure(STDIO_HOST + kind, host, name + "__echo", pid, window, cells, latencies));
    }

    /** A source file's worth of text: ASCII lines with a tab, quotes and a newline each, which JSON escapes. */
    static String largeText() {
        String line = "\tif (name.equals(\"mcpx\")) { return Map.of(\"path\", \"/usr/lib\"); } // 42%\n";
        StringBuilder text = new StringBuilder(LARGE_TEXT_CHARS + line.length());
        while (text.length() < LARGE_TEXT_CHARS) {
            text.append(line);
        }
        text.setLength(LARGE_TEXT_CHARS);
        return text.toString();
    }

    /** {@link #LARGE_TEXT_CHARS} of base64 of bytes that do not repeat within it. */
    static String largeBase64() {
        byte[] bytes = new byte[LARGE_TEXT_CHARS / 4 * 3];
        new Random(17).nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * The stdio fake directly and behind a stdio host's mcpx, with {@link #LARGE_TEXT_CHARS} of text
     * each way, at one caller: a host that sends or fetches a file.
     */
    private static void large(BenchEnv env, Duration window, List<Cell> cells, String kind, String text)
            throws InterruptedException {
        McpClient direct = HostClients.stdio("hop-direct-stdio-large", env.stdioUpstream());
        try {
            cells.add(warmWindow("direct / stdio" + kind, HostClients.echo(direct, "echo", text), -1, window));
        } finally {
            direct.close();
        }
        withStdioHost(env, "hop-stdio-host-large.json", new GatewayConfigFile().stdio("stdio", env.stdioUpstream()),
                (host, pid) -> cells.add(warmWindow(STDIO_HOST + "stdio" + kind, HostClients.echo(host, "stdio__echo", text), pid, window)));
    }

    private static Cell warmWindow(String setup, LoadDriver.Call call, long gatewayPid, Duration window) throws InterruptedException {
        for (int i = 0; i < LARGE_WARM_UP_CALLS; i++) {
            try {
                call.run();
            } catch (Exception e) {
                throw new IllegalStateException(setup + ": warm-up call " + i + " failed", e);
            }
        }
        Cell one = window(setup, 1, call, gatewayPid, window);
        System.err.printf("hop  %-22s 1 caller %6.0f calls/s p50 %6.3f ms cpu %5.0f us/call %4.1f cs/call%n", setup,
                one.callsPerSecond(), one.p50Millis(), one.cpuMicrosPerCall(), one.switchesPerCall());
        return one;
    }

    private interface StdioHostRun {
        void run(McpClient host, long gatewayPid) throws InterruptedException;
    }

    /** Spawns {@code bin/mcpx serve --stdio} on {@code upstream} (written to {@code file}) as a host does, and finds its pid. */
    private static void withStdioHost(BenchEnv env, String file, GatewayConfigFile upstream, StdioHostRun run) throws InterruptedException {
        Path config = upstream.write(env.logDir(), file);
        McpClient host = HostClients.stdio("hop-stdio-host",
                List.of(env.mcpx().toString(), "serve", "-c", config.toString(), "--stdio"));
        try {
            long pid = ProcessHandle.current().descendants()
                    .filter(p -> p.info().commandLine().orElse("").contains(file))
                    .mapToLong(ProcessHandle::pid).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no mcpx process serving " + file));
            run.run(host, pid);
        } finally {
            host.close();
        }
    }

    private static void direct(BenchEnv env, String setup, McpClient client, Duration window, List<Cell> cells,
                               List<Latency> latencies) throws InterruptedException {
        try {
            measure(setup, client, "echo", -1, window, cells, latencies);
        } finally {
            client.close();
        }
    }

    /** First 100 calls, warm-up to {@link #WARM_UP_CALLS}, then windows at 1 and 16 callers with the gateway's CPU. */
    private static void measure(String setup, McpClient host, String tool, long gatewayPid, Duration window,
                                List<Cell> cells, List<Latency> latencies) throws InterruptedException {
        LoadDriver.Call call = HostClients.echo(host, tool);
        long[] first = new long[FIRST_CALLS];
        for (int i = 0; i < FIRST_CALLS; i++) {
            long began = System.nanoTime();
            try {
                call.run();
            } catch (Exception e) {
                throw new IllegalStateException(setup + ": call " + i + " failed", e);
            }
            first[i] = System.nanoTime() - began;
        }
        double cpuAfterFirst = gatewayPid > 0 ? ProcStat.cpuMillis(gatewayPid) : Double.NaN;
        for (int i = FIRST_CALLS; i < WARM_UP_CALLS; i++) {
            try {
                call.run();
            } catch (Exception e) {
                throw new IllegalStateException(setup + ": warm-up call " + i + " failed", e);
            }
        }
        Arrays.sort(first);
        if (gatewayPid > 0) {
            System.err.printf("hop  %-22s gateway cpu %6.0f ms after the first %d calls, %6.0f ms after %d; rss %5.1f MiB%n",
                    setup, cpuAfterFirst, FIRST_CALLS, ProcStat.cpuMillis(gatewayPid), WARM_UP_CALLS, Rss.ofPid(gatewayPid));
        }
        Cell one = window(setup, 1, call, gatewayPid, window);
        Cell sixteen = window(setup, 16, call, gatewayPid, window);
        cells.add(one);
        cells.add(sixteen);
        latencies.add(new Latency(setup, Latencies.percentileMillis(first, 50), one.p50Millis()));
        System.err.printf("hop  %-22s first-100 p50 %6.3f ms | 1 caller %6.0f calls/s p50 %6.3f ms cpu %5.0f us/call"
                        + " %4.1f cs/call | 16 callers %6.0f calls/s cpu %5.0f us/call %4.1f cs/call%n", setup,
                Latencies.percentileMillis(first, 50), one.callsPerSecond(), one.p50Millis(), one.cpuMicrosPerCall(),
                one.switchesPerCall(), sixteen.callsPerSecond(), sixteen.cpuMicrosPerCall(), sixteen.switchesPerCall());
    }

    /** {@code callers} in a closed loop; the gateway's CPU and the calls finished are read at the window's edges. */
    private static Cell window(String setup, int callers, LoadDriver.Call call, long gatewayPid, Duration window)
            throws InterruptedException {
        AtomicLong done = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long warmup = Duration.ofMillis(500).toNanos();
        long start = System.nanoTime();
        long windowStart = start + warmup;
        long windowEnd = windowStart + window.toNanos();
        List<Latencies> perThread = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            Latencies latencies = new Latencies();
            perThread.add(latencies);
            threads.add(Thread.ofVirtual().name("hop-caller-" + i).start(() -> {
                long now = System.nanoTime();
                while (now < windowEnd) {
                    long began = now;
                    try {
                        call.run();
                        now = System.nanoTime();
                        done.incrementAndGet();
                        if (began >= windowStart && now <= windowEnd) {
                            latencies.add(now - began);
                        }
                    } catch (Exception e) {
                        now = System.nanoTime();
                        errors.incrementAndGet();
                    }
                }
            }));
        }
        TimeUnit.NANOSECONDS.sleep(windowStart - System.nanoTime());
        double cpuStart = gatewayPid < 0 ? Double.NaN : ProcStat.cpuMillis(gatewayPid);
        double switchesStart = gatewayPid < 0 ? Double.NaN : ProcStat.contextSwitches(gatewayPid);
        long doneStart = done.get();
        TimeUnit.NANOSECONDS.sleep(Math.max(0, windowEnd - System.nanoTime()));
        double cpuEnd = gatewayPid < 0 ? Double.NaN : ProcStat.cpuMillis(gatewayPid);
        double switchesEnd = gatewayPid < 0 ? Double.NaN : ProcStat.contextSwitches(gatewayPid);
        long doneEnd = done.get();
        for (Thread t : threads) {
            t.join();
        }
        long[] sorted = Latencies.merged(perThread);
        long calls = doneEnd - doneStart;
        double cpuPerCall = calls == 0 ? Double.NaN : (cpuEnd - cpuStart) * 1000.0 / calls;
        double switchesPerCall = calls == 0 ? Double.NaN : (switchesEnd - switchesStart) / calls;
        return new Cell(setup, callers, sorted.length / (window.toNanos() / 1e9), Latencies.percentileMillis(sorted, 50),
                cpuPerCall, switchesPerCall, errors.get());
    }

    /** The gateway's /status until every upstream is up: the first calls measure the hop, not a child's start. */
    static void awaitUpstreamsUp(URI url) throws IOException, InterruptedException {
        URI status = url.resolve("/status");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (http) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            String body = "";
            while (System.nanoTime() < deadline) {
                body = http.send(HttpRequest.newBuilder(status).build(), HttpResponse.BodyHandlers.ofString()).body();
                if (!body.contains("\"state\"") || body.split("\"state\"\\s*:\\s*\"up\"", -1).length - 1
                        == body.split("\"state\"", -1).length - 1) {
                    return;
                }
                Thread.sleep(20);
            }
            throw new IllegalStateException("upstreams not all up after 60 s: " + body);
        }
    }

    /** A legacy session on the gateway for wrk's requests: initialize, then initialized. */
    static String initializeSession(URI url) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (http) {
            HttpResponse<String> init = http.send(post(url, null, """
                    {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
                    "capabilities":{},"clientInfo":{"name":"mcpx-bench-wrk","version":"1"}}}"""),
                    HttpResponse.BodyHandlers.ofString());
            String session = init.headers().firstValue("Mcp-Session-Id")
                    .orElseThrow(() -> new IllegalStateException("no session from " + url + ": " + init.body()));
            http.send(post(url, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                    HttpResponse.BodyHandlers.discarding());
            return session;
        }
    }

    private static HttpRequest post(URI url, String session, String body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            builder.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        }
        return builder.build();
    }

    /** wrk on PATH, or null. */
    static String wrkPath() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "wrk");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }

    private static List<Cell> medianCells(List<List<Cell>> rounds) {
        List<Cell> out = new ArrayList<>();
        for (int i = 0; i < rounds.getFirst().size(); i++) {
            int at = i;
            List<Cell> same = rounds.stream().map(r -> r.get(at)).toList();
            Cell first = same.getFirst();
            out.add(new Cell(first.setup(), first.callers(), median(same.stream().mapToDouble(Cell::callsPerSecond)),
                    median(same.stream().mapToDouble(Cell::p50Millis)), median(same.stream().mapToDouble(Cell::cpuMicrosPerCall)),
                    median(same.stream().mapToDouble(Cell::switchesPerCall)), same.stream().mapToLong(Cell::errors).sum()));
        }
        return out;
    }

    private static List<Latency> medianLatencies(List<List<Latency>> rounds) {
        List<Latency> out = new ArrayList<>();
        for (int i = 0; i < rounds.getFirst().size(); i++) {
            int at = i;
            List<Latency> same = rounds.stream().map(r -> r.get(at)).toList();
            out.add(new Latency(same.getFirst().setup(), median(same.stream().mapToDouble(Latency::firstHundredP50Millis)),
                    median(same.stream().mapToDouble(Latency::warmP50Millis))));
        }
        return out;
    }

    private static List<WrkRun.Wrk> medianWrk(List<List<WrkRun.Wrk>> rounds) {
        List<WrkRun.Wrk> out = new ArrayList<>();
        for (int i = 0; i < rounds.getFirst().size(); i++) {
            int at = i;
            List<WrkRun.Wrk> same = rounds.stream().map(r -> r.get(at)).toList();
            out.add(new WrkRun.Wrk(same.getFirst().setup(), median(same.stream().mapToDouble(WrkRun.Wrk::callsPerSecond)),
                    median(same.stream().mapToDouble(WrkRun.Wrk::p50Millis)), median(same.stream().mapToDouble(WrkRun.Wrk::cpuMicrosPerCall)),
                    median(same.stream().mapToDouble(WrkRun.Wrk::switchesPerCall)), same.stream().mapToLong(WrkRun.Wrk::badAnswers).sum()));
        }
        return out;
    }

    private static double median(java.util.stream.DoubleStream values) {
        return Stats.median(values.toArray());
    }
}

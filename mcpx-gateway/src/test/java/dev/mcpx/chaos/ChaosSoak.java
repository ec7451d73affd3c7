package dev.mcpx.chaos;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.pool.ClientFactory;
import dev.mcpx.pool.Upstream;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.testkit.chaos.ChaosProxy;
import dev.mcpx.testkit.chaos.FaultPlan;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * The chaos soak: the gateway in process with a legacy, a modern and a stdio upstream, the two
 * HTTP ones behind {@link ChaosProxy}s, many concurrent hosts calling tools through the HTTP
 * front and a few through stdio fronts, and a seeded schedule that restarts the legacy upstream, makes it forget its sessions
 * and SIGKILLs the stdio child. When the time is up it drains and checks the invariants.
 */
final class ChaosSoak {

    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);
    private static final int MAX_MESSAGE_CHARS = 256 * 1024;

    private final SoakSettings settings;
    private static final List<String> MODERN_TOOLS = List.of("read_only_tool", "idempotent_tool", "destructive_tool",
            "plain_tool");

    private final SoakTally tally = new SoakTally();
    private volatile boolean running = true;

    ChaosSoak(SoakSettings settings) {
        this.settings = settings;
    }

    SoakReport run() throws Exception {
        ResourceProbe before = ResourceProbe.now();
        Path ledger = Files.createTempFile("mcpx-soak-ledger", ".txt");
        LegacyHttpUpstream legacy = LegacyHttpUpstream.started().responseMode(LegacyHttpUpstream.ResponseMode.SSE);
        ModernHttpUpstream modern = ModernHttpUpstream.start();
        ChaosProxy legacyProxy = ChaosProxy.start(legacy.url(), FaultPlan.none());
        ChaosProxy modernProxy = ChaosProxy.start(modern.url(), FaultPlan.none());
        Gateway gateway = Gateway.start(TestGateways.config(
                upstream("legacy", "lh", UpstreamEndpoint.Http.of(legacyProxy.url(legacy.url()).toString())),
                upstream("modern", "mh", UpstreamEndpoint.Http.of(modernProxy.url(modern.url()).toString())),
                stdio(ledger)), settings(), Map.of());
        HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
        ResourceProbe baseline;
        ResourceProbe drained;
        Map<String, Long> recoveries;
        Map<String, String> executions;
        Map<String, Long> faults = new TreeMap<>();
        try {
            warmUp(front);
            List<SoakCaller> callers = new ArrayList<>();
            BooleanSupplier keepGoing = () -> running;
            for (int i = 0; i < settings.callers(); i++) {
                callers.add(new SoakCaller(i, front.mcpUri(), i % 2 == 1, settings.seed(), tally, keepGoing));
            }
            List<StdioSoakHost> stdioHosts = new ArrayList<>();
            for (int i = 0; i < settings.stdioHosts(); i++) {
                stdioHosts.add(new StdioSoakHost(i, gateway, settings.seed(), tally, keepGoing));
            }
            baseline = ResourceProbe.now();
            legacyProxy.plan(new FaultPlan(settings.seed() + 1, 6, 1, 4, 1500, 200));
            modernProxy.plan(new FaultPlan(settings.seed() + 2, 6, 1, 4, 1500, 200));
            List<Thread> threads = new ArrayList<>();
            callers.forEach(caller -> threads.add(Thread.ofVirtual().name("soak-caller").start(caller)));
            stdioHosts.forEach(host -> threads.add(Thread.ofVirtual().name("soak-stdio-host").start(host::run)));
            injectUntilDone(legacy, modern, gateway);
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(60));
                if (thread.isAlive()) {
                    tally.violation("a caller was still waiting 60 s after the run ended");
                }
            }
            legacyProxy.plan(FaultPlan.none());
            modernProxy.plan(FaultPlan.none());
            for (StdioSoakHost host : stdioHosts) {
                host.finish();
            }
            awaitNoPending(gateway);
            drained = awaitSettled(baseline);
            recoveries = recoveries(gateway.status());
            executions = checkExecutions(legacy, modern, ledger);
            faults.putAll(tally.faultsByKind());
            legacyProxy.faultsByKind().forEach((k, v) -> faults.put("legacy-conn-" + k, v));
            modernProxy.faultsByKind().forEach((k, v) -> faults.put("modern-conn-" + k, v));
        } finally {
            running = false;
            closeQuietly("the HTTP front", front);
            closeQuietly("the gateway", gateway);
            closeQuietly("the legacy proxy", legacyProxy);
            closeQuietly("the modern proxy", modernProxy);
            closeQuietly("the legacy upstream", legacy);
            closeQuietly("the modern upstream", modern);
            Files.deleteIfExists(ledger);
        }
        ResourceProbe closed = awaitClosed(before);
        return new SoakReport(settings, tally.sent(), tally.answeredCount(), tally.disconnects(),
                tally.requestsByFront(), tally.answersByKind(), tally.errorsByMessage(), faults, recoveries, executions, baseline, drained, closed, tally.violations());
    }

    /** A close that fails is a finding, not a reason to lose the report. */
    private void closeQuietly(String what, AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            tally.violation("closing " + what + " failed: " + e);
        }
    }

    private static UpstreamConfig upstream(String name, String prefix, UpstreamEndpoint endpoint) {
        return new UpstreamConfig(name, endpoint, prefix, Map.of(), REQUEST_TIMEOUT, Duration.ofSeconds(10), true);
    }

    private static UpstreamConfig stdio(Path ledger) {
        UpstreamConfig fake = TestGateways.fake("stdio", "--ledger", ledger.toString());
        return upstream("stdio", "st", fake.endpoint());
    }

    private static Gateway.Settings settings() {
        ClientFactory clients = (config, events) -> config.clientBuilder().clientInfo("mcpx", "soak")
                .maxMessageChars(MAX_MESSAGE_CHARS).events(events).build();
        Gateway.Settings defaults = TestGateways.settings();
        return new Gateway.Settings(clients, defaults.backoff(), defaults.startWait(), defaults.pageSize(),
                defaults.debounce(), defaults.identity(), defaults.heldCalls());
    }

    /** Waits until the catalogue lists all three upstreams' tools, so faults start on a working gateway. */
    private static void warmUp(HttpFront front) throws Exception {
        HttpHost host = HttpHost.modern(front.mcpUri());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            String tools = host.request("tools/list", null).body();
            if (tools.contains("lh__increment") && tools.contains("mh__destructive_tool") && tools.contains("st__add")) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the gateway did not list every upstream's tools within 60 s");
    }

    /**
     * The upstream-level fault schedule: restarts, forgotten sessions, SIGKILLed children, and
     * repeated faults that last 2-4 s: a legacy upstream that rejects every session right after
     * initialize, a modern one whose every response stream breaks.
     */
    private void injectUntilDone(LegacyHttpUpstream legacy, ModernHttpUpstream modern, Gateway gateway)
            throws InterruptedException {
        Random random = new Random(settings.seed() ^ 0xC4A05L);
        long end = System.nanoTime() + settings.duration().toNanos();
        while (System.nanoTime() < end) {
            Thread.sleep(Math.min(1_000 + random.nextInt(3_000), Math.max(0, (end - System.nanoTime()) / 1_000_000)));
            if (System.nanoTime() >= end) {
                break;
            }
            switch (random.nextInt(5)) {
                case 0 -> {
                    tally.fault("legacy-restart");
                    restart(legacy);
                }
                case 1 -> {
                    tally.fault("legacy-forget-sessions");
                    legacy.forgetSessions();
                }
                case 3 -> {
                    tally.fault("legacy-reject-every-session");
                    int initializes = legacy.initializeCount();
                    long lasted = System.nanoTime();
                    legacy.rejectEverySession(true);
                    Thread.sleep(2_000 + random.nextInt(2_000));
                    legacy.rejectEverySession(false);
                    tally.faults("legacy-reject-every-session-ms", (System.nanoTime() - lasted) / 1_000_000);
                    tally.faults("legacy-initializes-while-rejecting", legacy.initializeCount() - initializes);
                }
                case 4 -> {
                    tally.fault("modern-break-every-stream");
                    int executions = MODERN_TOOLS.stream().mapToInt(modern::executions).sum();
                    long lasted = System.nanoTime();
                    MODERN_TOOLS.forEach(tool -> modern.breakStream(tool, Integer.MAX_VALUE));
                    Thread.sleep(2_000 + random.nextInt(2_000));
                    MODERN_TOOLS.forEach(tool -> modern.breakStream(tool, 0));
                    tally.faults("modern-break-every-stream-ms", (System.nanoTime() - lasted) / 1_000_000);
                    tally.faults("modern-executions-while-breaking",
                            MODERN_TOOLS.stream().mapToInt(modern::executions).sum() - executions);
                }
                default -> {
                    Long pid = gateway.pool().require("stdio").lastPid();
                    if (pid != null && ProcessHandle.of(pid).map(ProcessHandle::destroyForcibly).orElse(false)) {
                        tally.fault("stdio-sigkill");
                    }
                }
            }
        }
        running = false;
    }

    /** Restarts on the same port; another socket may hold it for a moment, so binding is retried for 5 s. */
    private void restart(LegacyHttpUpstream legacy) throws InterruptedException {
        legacy.stop();
        for (int attempt = 1; ; attempt++) {
            try {
                legacy.start();
                return;
            } catch (IllegalStateException portTaken) {
                if (attempt == 50) {
                    tally.violation("the legacy upstream could not rebind its port: " + portTaken.getMessage());
                    throw portTaken;
                }
                tally.fault("legacy-restart-rebind-retry");
                Thread.sleep(100);
            }
        }
    }

    private void awaitNoPending(Gateway gateway) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        Map<String, Integer> pending = pending(gateway);
        while (!pending.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            pending = pending(gateway);
        }
        if (!pending.isEmpty()) {
            tally.violation("pending tables not empty after draining: " + pending);
        }
    }

    private static Map<String, Integer> pending(Gateway gateway) {
        Map<String, Integer> out = new TreeMap<>();
        for (Upstream upstream : gateway.pool().upstreams()) {
            if (upstream.pendingRequests() > 0) {
                out.put(upstream.name(), upstream.pendingRequests());
            }
        }
        return out;
    }

    /** Once callers stop, threads, descriptors, children and heap come back to the baseline band. */
    private ResourceProbe awaitSettled(ResourceProbe baseline) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        ResourceProbe now = ResourceProbe.now();
        while (!withinBand(baseline, now) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            now = ResourceProbe.now();
        }
        if (now.platformThreads() > baseline.platformThreads() + 8) {
            tally.violation("platform threads grew from " + baseline.platformThreads() + " to " + now.platformThreads()
                    + ": " + ResourceProbe.threadNames());
        }
        if (now.fileDescriptors() > baseline.fileDescriptors() + 24) {
            tally.violation("file descriptors grew from " + baseline.fileDescriptors() + " to " + now.fileDescriptors());
        }
        if (now.children() != baseline.children()) {
            tally.violation("child processes: " + baseline.children() + " at the start, " + now.children() + " now");
        }
        if (now.heapBytes() > baseline.heapBytes() + 96L * 1024 * 1024) {
            tally.violation("heap grew from " + baseline.heapBytes() / (1 << 20) + " MiB to "
                    + now.heapBytes() / (1 << 20) + " MiB");
        }
        return now;
    }

    private static boolean withinBand(ResourceProbe baseline, ResourceProbe now) {
        return now.platformThreads() <= baseline.platformThreads() + 8
                && now.fileDescriptors() <= baseline.fileDescriptors() + 24
                && now.children() == baseline.children()
                && now.heapBytes() <= baseline.heapBytes() + 96L * 1024 * 1024;
    }

    /** After everything closed: no child process survives, descriptors are back where they started. */
    private ResourceProbe awaitClosed(ResourceProbe before) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        ResourceProbe now = ResourceProbe.now();
        while ((now.children() > before.children() || now.fileDescriptors() > before.fileDescriptors() + 16)
                && System.nanoTime() < deadline) {
            Thread.sleep(250);
            now = ResourceProbe.now();
        }
        if (now.children() > before.children()) {
            tally.violation("child processes outlived the gateway: " + now.children());
        }
        if (now.fileDescriptors() > before.fileDescriptors() + 16) {
            tally.violation("file descriptors after close: " + now.fileDescriptors() + ", before start: "
                    + before.fileDescriptors());
        }
        return now;
    }

    private static Map<String, Long> recoveries(List<UpstreamStatus> statuses) {
        Map<String, Long> out = new TreeMap<>();
        for (UpstreamStatus status : statuses) {
            out.put(status.name() + "-reinitializations", status.reinitializations());
            out.put(status.name() + "-reissues", status.reissues());
            out.put(status.name() + "-restarts", status.restarts());
            out.put(status.name() + "-errors", status.errors());
        }
        return out;
    }

    /** Unsafe tools ran at most as often as hosts asked for them, counted on the upstreams. */
    private Map<String, String> checkExecutions(LegacyHttpUpstream legacy, ModernHttpUpstream modern, Path ledger)
            throws Exception {
        List<String> stdioRuns = Files.readAllLines(ledger);
        Map<String, Long> executed = new LinkedHashMap<>();
        executed.put("lh__increment", (long) legacy.executions("increment"));
        executed.put("mh__destructive_tool", (long) modern.executions("destructive_tool"));
        executed.put("mh__plain_tool", (long) modern.executions("plain_tool"));
        executed.put("st__add", stdioRuns.stream().filter("add"::equals).count());
        Map<String, String> out = new LinkedHashMap<>();
        executed.forEach((tool, count) -> {
            long requested = tally.requestedOf(tool);
            out.put(tool, count + "/" + requested);
            if (count > requested) {
                tally.violation(tool + " executed " + count + " times for " + requested + " requests");
            }
        });
        return out;
    }
}

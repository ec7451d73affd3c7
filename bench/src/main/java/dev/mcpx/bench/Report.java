package dev.mcpx.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Collects the sections' results and renders docs/benchmarks.md (also printed). */
final class Report {

    private final BenchMain.Options options;
    private final BenchEnv env;
    private final ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
    private final String commit = Machine.commit();
    private List<LoadResult> load = List.of();
    private final List<String> sections = new ArrayList<>();
    private final List<Target> targets = new ArrayList<>();

    /** One target of issue 8 with what was measured against it. */
    record Target(String what, String goal, String measured, boolean met) {
    }

    Report(BenchMain.Options options, BenchEnv env) {
        this.options = options;
        this.env = env;
    }

    void load(List<LoadResult> results) {
        this.load = results;
        StringBuilder md = new StringBuilder();
        md.append("## Throughput and latency: `tools/call` at N concurrent callers\n\n");
        md.append("Each HTTP set-up has ").append(LoadBench.HOST_SESSIONS)
                .append(" host sessions, caller i on session i mod ").append(LoadBench.HOST_SESSIONS)
                .append(" (mcpx limits one host to 64 calls in flight); direct stdio is one client. ");
        md.append("Each cell is the median of ").append(options.rounds()).append(" rounds of ")
                .append(options.windowMillis()).append(" ms (after ").append(options.warmupMillis())
                .append(" ms warm-up), after one unrecorded warm-up round at 32 callers; the set-ups take turns ")
                .append("within each round. `vs direct` divides by the direct ")
                .append("set-up to the same upstream; `mcpx ×` divides mcpx's rate on the same stdio upstream by the proxy's.\n\n");
        md.append("| set-up | callers | calls/s | p50 ms | p99 ms | errors | vs direct | mcpx × |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int callers : options.callers()) {
            for (LoadResult r : results.stream().filter(r -> r.callers() == callers).toList()) {
                String[] parts = r.setup().split(" / ");
                String vsDirect = "";
                String mcpxTimes = "";
                if (parts[0].equals(LoadBench.MCPX)) {
                    vsDirect = find(LoadBench.DIRECT, parts[1], callers)
                            .map(d -> fmt("%.2f", r.callsPerSecond() / d.callsPerSecond())).orElse("");
                } else if (!parts[0].equals(LoadBench.DIRECT)) {
                    vsDirect = find(LoadBench.DIRECT, parts[1], callers)
                            .map(d -> fmt("%.2f", r.callsPerSecond() / d.callsPerSecond())).orElse("");
                    mcpxTimes = find(LoadBench.MCPX, parts[1], callers)
                            .map(m -> fmt("%.1f", m.callsPerSecond() / r.callsPerSecond())).orElse("");
                }
                md.append(fmt("| %s | %d | %.0f | %.2f | %.2f | %d | %s | %s |%n", r.setup(), callers,
                        r.callsPerSecond(), r.p50Millis(), r.p99Millis(), r.errors(), vsDirect, mcpxTimes));
            }
        }
        results.stream().filter(r -> r.firstError() != null).forEach(r ->
                md.append(fmt("%nFirst error in `%s` at %d callers: `%s`%n", r.setup(), r.callers(), r.firstError())));
        sections.add(md.toString());
        loadTargets();
    }

    private void loadTargets() {
        find(LoadBench.MCPX, "legacy-http", 32).ifPresent(m -> find(LoadBench.DIRECT, "legacy-http", 32).ifPresent(d -> {
            double ratio = m.callsPerSecond() / d.callsPerSecond();
            targets.add(new Target("throughput through mcpx, 32 callers, legacy HTTP upstream", ">= 0.9x direct",
                    fmt("%.2fx", ratio), ratio >= 0.9));
        }));
        find(LoadBench.MCPX, "modern-http", 32).ifPresent(m -> find(LoadBench.DIRECT, "modern-http", 32).ifPresent(d -> {
            double ratio = m.callsPerSecond() / d.callsPerSecond();
            targets.add(new Target("throughput through mcpx, 32 callers, modern HTTP upstream", ">= 0.9x direct",
                    fmt("%.2fx", ratio), ratio >= 0.9));
        }));
        find(LoadBench.MCPX, "legacy-http", 1).ifPresent(m -> find(LoadBench.DIRECT, "legacy-http", 1).ifPresent(d -> {
            double added = m.p99Millis() - d.p99Millis();
            targets.add(new Target("p99 added latency on loopback, 1 caller, legacy HTTP", "<= 1 ms",
                    fmt("%.2f ms (p50 +%.2f ms)", added, m.p50Millis() - d.p50Millis()), added <= 1.0));
        }));
        for (String proxy : List.of("mcp-proxy", "supergateway")) {
            for (int callers : List.of(32)) {
                find(LoadBench.MCPX, "stdio", callers).ifPresent(m -> find(proxy, "stdio", callers).ifPresent(p -> {
                    double ratio = m.callsPerSecond() / p.callsPerSecond();
                    targets.add(new Target("throughput vs " + proxy + ", same stdio upstream, " + callers + " callers",
                            ">= 5x", fmt("%.1fx", ratio), ratio >= 5));
                }));
            }
        }
    }

    Optional<LoadResult> find(String via, String upstream, int callers) {
        String name = via + " / " + upstream;
        return load.stream().filter(r -> r.setup().equals(name) && r.callers() == callers).findFirst();
    }

    void hop(HopBench.Result hop) {
        StringBuilder md = new StringBuilder("## The hop: CPU per call, latency, warm-up (issue 17)\n\n");
        md.append("mcpx (`bin/mcpx serve --http`, a fresh gateway per set-up and round, from the AOT cache trained before ")
                .append("the run on Java 25+, as a user's second launch starts) in front of the in-process fast ")
                .append("legacy and modern HTTP upstreams and the stdio fake; the host is mcpx's own client on one legacy ")
                .append("session over keep-alive, or, in the `").append(HopBench.STDIO_HOST).append("` set-ups, over stdio to a ")
                .append("`bin/mcpx serve --stdio` it spawns, as most hosts run mcpx. Per set-up: p50 of the first ").append(HopBench.FIRST_CALLS)
                .append(" calls after start, then calls up to ").append(HopBench.WARM_UP_CALLS)
                .append(", then a window of ").append(options.windowMillis()).append(" ms at 1 and at 16 callers. ")
                .append("CPU per call is the gateway process's user + system time over the window (from /proc) divided ")
                .append("by the calls finished in it: robust on a shared machine where wall time is not. Context switches per ")
                .append("call are the gateway's threads' switches over the window (/proc/PID/task/*/status) divided the same ")
                .append("way: each is a thread hand-off or a wait, which costs several microseconds on a virtual machine. Direct set-ups ")
                .append("have no gateway. The `").append(HopBench.LARGE.substring(2)).append("` rows send ")
                .append(HopBench.LARGE_TEXT_CHARS).append(" characters of source-like text (ASCII lines with a tab, quotes and a newline each, which JSON escapes) ")
                .append("to the echo tool, which sends them back, as a host that sends or fetches a file does; the `")
                .append(HopBench.LARGE_BASE64.substring(2)).append("` rows as many characters of base64, as an image or a ")
                .append("PDF travels, which needs no escape: ").append(HopBench.LARGE_WARM_UP_CALLS)
                .append(" calls, then the window at 1 caller. Medians of ").append(hop.rounds()).append(" rounds.\n\n");
        md.append("| set-up | callers | calls/s | p50 ms | gateway CPU us/call | gateway context switches/call | errors |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (HopBench.Cell c : hop.cells()) {
            md.append(fmt("| %s | %d | %.0f | %.3f | %s | %s | %d |%n", c.setup(), c.callers(), c.callsPerSecond(), c.p50Millis(),
                    Double.isNaN(c.cpuMicrosPerCall()) ? "-" : fmt("%.0f", c.cpuMicrosPerCall()),
                    Double.isNaN(c.switchesPerCall()) ? "-" : fmt("%.1f", c.switchesPerCall()), c.errors()));
        }
        md.append("\n| set-up | p50 first 100 calls ms | p50 warm ms | added first 100 | added warm |\n|---|---:|---:|---:|---:|\n");
        for (HopBench.Latency l : hop.latencies()) {
            String direct = l.setup().endsWith("stdio") ? "direct / stdio" : "direct / legacy-http";
            HopBench.Latency d = hop.latencies().stream().filter(x -> x.setup().equals(direct)).findFirst().orElse(null);
            boolean viaMcpx = l.setup().startsWith("mcpx") && d != null;
            md.append(fmt("| %s | %.3f | %.3f | %s | %s |%n", l.setup(), l.firstHundredP50Millis(), l.warmP50Millis(),
                    viaMcpx ? fmt("%+.3f ms", l.firstHundredP50Millis() - d.firstHundredP50Millis()) : "",
                    viaMcpx ? fmt("%+.3f ms", l.warmP50Millis() - d.warmP50Millis()) : ""));
        }
        md.append('\n');
        if (hop.wrkMissing() != null) {
            md.append("**").append(hop.wrkMissing()).append(".**\n");
        } else {
            md.append("`wrk -t2 -c").append(HopBench.WRK_CONNECTIONS).append(" -d5s`, every request a `tools/call` with its ")
                    .append("own id, every answer checked for a `result` (bad answers: not a result, or not 2xx).\n\n");
            md.append("| set-up (wrk, 32 connections) | calls/s | p50 ms | gateway CPU us/call | gateway context switches/call "
                    + "| bad answers | vs direct |\n").append("|---|---:|---:|---:|---:|---:|---:|\n");
            WrkRun.Wrk direct = hop.wrk().stream().filter(w -> w.setup().startsWith("direct")).findFirst().orElse(null);
            for (WrkRun.Wrk w : hop.wrk()) {
                md.append(fmt("| %s | %.0f | %.3f | %s | %s | %d | %s |%n", w.setup(), w.callsPerSecond(), w.p50Millis(),
                        Double.isNaN(w.cpuMicrosPerCall()) ? "-" : fmt("%.0f", w.cpuMicrosPerCall()),
                        Double.isNaN(w.switchesPerCall()) ? "-" : fmt("%.1f", w.switchesPerCall()), w.badAnswers(),
                        w.setup().startsWith("mcpx") && direct != null ? fmt("%.2f", w.callsPerSecond() / direct.callsPerSecond()) : ""));
            }
        }
        md.append("\n| target (issue 17) | goal | measured | |\n|---|---|---|---|\n");
        for (String upstream : List.of("legacy-http", "stdio", "modern-http")) {
            for (int callers : List.of(1, 16)) {
                double goal = (callers == 1 ? 100 : 60) * (upstream.equals("modern-http") ? 1.5 : 1);
                hop.cells().stream().filter(c -> c.setup().equals("mcpx / " + upstream) && c.callers() == callers).findFirst()
                        .ifPresent(c -> md.append(fmt("| gateway CPU per call, %s, %d caller%s | <= %.0f us | %.0f us | %s |%n",
                                upstream, callers, callers == 1 ? "" : "s", goal, c.cpuMicrosPerCall(),
                                c.cpuMicrosPerCall() <= goal ? "met" : "**missed**")));
            }
        }
        for (String upstream : List.of("legacy-http", "stdio")) {
            for (int callers : List.of(1, 16)) {
                double goal = callers == 1 ? 100 : 60;
                hop.cells().stream().filter(c -> c.setup().equals(HopBench.STDIO_HOST + upstream) && c.callers() == callers)
                        .findFirst().ifPresent(c -> md.append(fmt(
                                "| gateway CPU per call, stdio host, %s, %d caller%s | <= %.0f us | %.0f us | %s |%n",
                                upstream, callers, callers == 1 ? "" : "s", goal, c.cpuMicrosPerCall(),
                                c.cpuMicrosPerCall() <= goal ? "met" : "**missed**")));
            }
        }
        for (String front : List.of("mcpx / ", HopBench.STDIO_HOST)) {
            for (String upstream : List.of("legacy-http", "stdio")) {
                var m = hop.latencies().stream().filter(l -> l.setup().equals(front + upstream)).findFirst();
                var d = hop.latencies().stream().filter(l -> l.setup().equals("direct / " + upstream)).findFirst();
                if (m.isPresent() && d.isPresent()) {
                    String setup = front.equals("mcpx / ") ? upstream : "stdio host, " + upstream;
                    double warm = m.get().warmP50Millis() - d.get().warmP50Millis();
                    double first = m.get().firstHundredP50Millis() - d.get().firstHundredP50Millis();
                    md.append(fmt("| added p50, warm, %s | <= 0.15 ms | %.3f ms | %s |%n", setup, warm, warm <= 0.15 ? "met" : "**missed**"));
                    md.append(fmt("| added p50, first 100 calls, %s | <= 1 ms | %.3f ms | %s |%n", setup, first,
                            first <= 1 ? "met" : "**missed**"));
                }
            }
        }
        var wm = hop.wrk().stream().filter(w -> w.setup().equals("mcpx / legacy-http")).findFirst();
        var wd = hop.wrk().stream().filter(w -> w.setup().equals("direct / legacy-http")).findFirst();
        if (wm.isPresent() && wd.isPresent()) {
            double ratio = wm.get().callsPerSecond() / wd.get().callsPerSecond();
            md.append(fmt("| throughput at 32 connections (wrk), legacy HTTP | >= 0.6x direct | %.2fx | %s |%n", ratio,
                    ratio >= 0.6 ? "met" : "**missed**"));
        }
        sections.add(md.toString());
    }

    void heal(List<HealBench.Heal> heals) {
        StringBuilder md = new StringBuilder("## Heal time through the gateway\n\n");
        md.append("Legacy: from the moment the restarted upstream listens again to the host's first successful call ")
                .append("(the host calls at once and again on failure, no sleeps). Modern: the extra time of a call whose ")
                .append("response stream broke after the tool ran, over a normal call. Medians.\n\n");
        md.append("| event | repetitions | heal ms | normal call ms | failed host calls | re-initializes | re-issues |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (HealBench.Heal h : heals) {
            md.append(fmt("| %s | %d | %.2f | %.2f | %d | %d | %d |%n", h.what(), h.repetitions(), h.healMillis(),
                    h.normalCallMillis(), h.failedCalls(), h.reinitializations(), h.reissues()));
            targets.add(new Target("heal: " + h.what(), "one re-initialize / re-issue round trip, no failed host call",
                    fmt("%.2f ms (a normal call: %.2f ms), %d failed host calls", h.healMillis(), h.normalCallMillis(),
                            h.failedCalls()), h.failedCalls() == 0 && h.healMillis() <= 5 * h.normalCallMillis() + 5));
        }
        sections.add(md.toString());
    }

    void floor(FloorBench.Result floor) {
        StringBuilder md = new StringBuilder("## The hop against the floor of its stack\n\n");
        if (floor.wrkMissing() != null) {
            sections.add(md.append(floor.wrkMissing()).append(".\n").toString());
            return;
        }
        md.append("One fast legacy HTTP upstream, `wrk` at 1 and at 16 connections for ").append(FloorBench.SECONDS)
                .append(" s each after ").append(FloorBench.WARM_UP_SECONDS).append(" s at 1 connection; CPU and context ")
                .append("switches per call are the proxy process's own, from /proc. `SocketFloorProxy`: a hand-written ")
                .append("blocking proxy, one platform thread per connection carrying each call there and back. ")
                .append("`JettyFloorProxy`: a bare proxy on mcpx's own HTTP stack, no MCP in it, in the model mcpx's hop ")
                .append("had (Jetty's server on virtual threads, Jetty's client completing from its selector) and, on ")
                .append("platform threads, in the one it has (Jetty's server on platform threads, each writing the upstream ")
                .append("POST on a kept-alive connection of its own and reading the answer with a blocking read). ")
                .append("`JdkServerFloorProxy` and `HelidonFloorProxy`: the same proxy on two other servers a front could ")
                .append("stand on, the JDK's own (`com.sun.net.httpserver`, a pool of platform threads) and Helidon 4's ")
                .append("(a virtual thread per connection, blocking reads). The floors ")
                .append("run with C2 on, and again C1 only as bin/mcpx runs the gateway on 2 cores. A target ")
                .append("below a stack's floor cannot be met by tuning the code on top of it.\n\n");
        md.append("| proxy | 1 conn calls/s | p50 ms | CPU us/call | cs/call | 16 conns calls/s | CPU us/call | cs/call |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (FloorBench.Row r : floor.rows()) {
            md.append(fmt("| %s | %.0f | %.3f | %s | %s | %.0f | %s | %s |%n", r.setup(), r.one().callsPerSecond(),
                    r.one().p50Millis(), micros(r.one().cpuMicrosPerCall()), switches(r.one().switchesPerCall()),
                    r.sixteen().callsPerSecond(), micros(r.sixteen().cpuMicrosPerCall()),
                    switches(r.sixteen().switchesPerCall())));
        }
        sections.add(md.toString());
    }

    private static String micros(double value) {
        return Double.isNaN(value) ? "-" : fmt("%.0f", value);
    }

    private static String switches(double value) {
        return Double.isNaN(value) ? "-" : fmt("%.1f", value);
    }

    void firstList(FirstListBench.FirstList first) {
        sections.add(fmt("## First tools/list%n%nFrom launch to the first answered `tools/list` that names the upstream's "
                + "tool, over stdio with one fast stdio upstream (the stdio fake): through `bin/mcpx serve --stdio` "
                + "(its defaults) %.0f ms, straight from the upstream %.0f ms (medians of %d launches each, in turn).%n",
                first.throughMcpxMillis(), first.directMillis(), first.launches()));
        targets.add(new Target("first tools/list, one fast stdio upstream", "<= direct + 150 ms",
                fmt("%.0f ms (direct %.0f ms, %+.0f ms)", first.throughMcpxMillis(), first.directMillis(),
                        first.throughMcpxMillis() - first.directMillis()),
                first.throughMcpxMillis() <= first.directMillis() + 150));
    }

    void startup(List<StartupBench.Startup> startups) {
        StringBuilder md = new StringBuilder("## Start-up and memory\n\n");
        md.append("Start-up: from launching `bin/mcpx serve` (with ").append(StartupBench.UPSTREAMS)
                .append(" upstreams configured: 4 legacy HTTP, 4 modern HTTP, 2 stdio) to the answer of the first ")
                .append("`initialize`, median of ").append(startups.isEmpty() ? 0 : startups.getFirst().launches())
                .append(" launches; HTTP polls every 2 ms. RSS: the gateway process alone (not its stdio children), ")
                .append("2 s after all ").append(StartupBench.UPSTREAMS)
                .append(" upstreams are up, idle 10 s after (the JVM gives back its compilers' start-up memory at its ")
                .append("periodic clean-up, every 5 s), and the peak under 32 callers spread over them for 3 s.\n\n");
        md.append("CPU ms is the user + system time the gateway process had used by then: on a busy shared machine it ")
                .append("moves much less than wall-clock time, and on an idle 2-core machine wall time is at most about it.\n\n");
        md.append("RSS counts mapped files too (a class archive or AOT cache is mostly clean, shareable pages); ")
                .append("the private part (RssAnon) is shown beside it.\n\n");
        md.append("| JVM | start-up HTTP ms | CPU ms | start-up stdio ms | CPU ms | RSS 2 s after MiB | RSS idle MiB | of it private | RSS peak under load MiB | calls/s under load | errors |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (StartupBench.Startup s : startups) {
            md.append(fmt("| %s | %.0f | %.0f | %.0f | %.0f | %.1f | %.1f | %.1f | %.1f | %.0f | %d |%n", s.mode(), s.httpMillis(),
                    s.httpCpuMillis(), s.stdioMillis(), s.stdioCpuMillis(), s.earlyRssMib(), s.idleRssMib(), s.idleAnonMib(), s.loadRssMib(),
                    s.loadCallsPerSecond(), s.loadErrors()));
        }
        sections.add(md.toString());
        startups.stream().filter(s -> s.mode().startsWith("default")).findFirst().ifPresent(d -> {
            double first = Math.max(d.httpMillis(), d.stdioMillis());
            targets.add(new Target("first initialize after launch (no JVM cache)", "<= 400 ms",
                    fmt("HTTP %.0f ms, stdio %.0f ms wall (CPU %.0f / %.0f ms)", d.httpMillis(), d.stdioMillis(),
                            d.httpCpuMillis(), d.stdioCpuMillis()), first <= 400));
            targets.add(new Target("RSS with 10 idle upstreams (no JVM cache)", "<= 100 MB",
                    fmt("%.1f MiB (%.1f MB)", d.idleRssMib(), d.idleRssMib() * 1.048576), d.idleRssMib() * 1.048576 <= 100));
        });
        startups.stream().min(Comparator.comparingDouble(StartupBench.Startup::idleRssMib)).ifPresent(low ->
                targets.add(new Target("RSS with 10 idle upstreams (lowest: " + low.mode() + ")", "<= 100 MB",
                        fmt("%.1f MiB (%.1f MB), private %.1f MiB", low.idleRssMib(), low.idleRssMib() * 1.048576,
                                low.idleAnonMib()), low.idleRssMib() * 1.048576 <= 100)));
        startups.stream().filter(s -> !s.mode().startsWith("default"))
                .min(Comparator.comparingDouble(StartupBench.Startup::stdioMillis)).ifPresent(best -> {
                    double first = Math.max(best.httpMillis(), best.stdioMillis());
                    targets.add(new Target("first initialize after launch (" + best.mode() + ")", "<= 400 ms",
                            fmt("HTTP %.0f ms, stdio %.0f ms wall (CPU %.0f / %.0f ms)", best.httpMillis(),
                                    best.stdioMillis(), best.httpCpuMillis(), best.stdioCpuMillis()), first <= 400));
                });
        startups.stream().filter(s -> s.mode().equals(StartupBench.LAUNCHER_MODE)).findFirst().ifPresent(launcher -> {
            targets.add(new Target("first initialize after launch, bin/mcpx (issue 17)", "<= 300 ms",
                    fmt("HTTP %.0f ms, stdio %.0f ms wall (CPU %.0f / %.0f ms)", launcher.httpMillis(), launcher.stdioMillis(),
                            launcher.httpCpuMillis(), launcher.stdioCpuMillis()),
                    Math.max(launcher.httpMillis(), launcher.stdioMillis()) <= 300));
            targets.add(new Target("RSS with 10 idle upstreams, bin/mcpx (issue 17)", "<= 80 MB",
                    fmt("%.1f MiB (%.1f MB), private %.1f MiB; 2 s after start-up %.1f MiB", launcher.idleRssMib(),
                            launcher.idleRssMib() * 1.048576, launcher.idleAnonMib(), launcher.earlyRssMib()),
                    launcher.idleRssMib() * 1.048576 <= 80));
        });
    }

    void scale(ScaleBench.InFlight inFlight, ScaleBench.BigCatalogue catalogue) {
        StringBuilder md = new StringBuilder("## Scale\n\n");
        if (inFlight != null) {
            md.append(fmt("In flight: %d callers in %d host sessions each made %d calls of a tool that sleeps, through one "
                            + "gateway to one legacy HTTP upstream. Completed %d, errors %d, at most %d running at once on "
                            + "the upstream, %.1f s in all.%n%n", inFlight.callers(), inFlight.hosts(), inFlight.callsEach(),
                    inFlight.completed(),
                    inFlight.errors(), inFlight.peakInFlight(), inFlight.seconds()));
            if (inFlight.firstError() != null) {
                md.append("First error: `").append(inFlight.firstError()).append("`\n\n");
            }
            targets.add(new Target(inFlight.callers() + " concurrent in-flight calls through one gateway", "no errors",
                    fmt("%d errors, %d in flight at the upstream at once", inFlight.errors(), inFlight.peakInFlight()),
                    inFlight.errors() == 0 && inFlight.peakInFlight() >= inFlight.callers()));
        }
        if (catalogue != null) {
            md.append(fmt("Catalogue: %d tools from two upstreams (legacy and modern HTTP). A fresh host listed %d tools "
                            + "in %d pages in %.1f ms (median); listing the same tools straight from the two upstreams took "
                            + "%.1f ms. A call of the last tool listed %s.%n", catalogue.tools(), catalogue.listed(),
                    catalogue.pages(), catalogue.listMillis(), catalogue.directMillis(),
                    catalogue.lastToolAnswered() ? "was answered" : "**failed**"));
            targets.add(new Target(catalogue.tools() + "-tool catalogue through one gateway", "listed whole, routable",
                    fmt("%d listed, host tools/list %.1f ms", catalogue.listed(), catalogue.listMillis()),
                    catalogue.listed() == catalogue.tools() && catalogue.lastToolAnswered()));
        }
        sections.add(md.toString());
    }

    void redis(RedisCostBench.Cost cost) {
        StringBuilder md = new StringBuilder("## What a legacy session costs the cluster's Redis\n\n");
        md.append(fmt("Two `mcpx serve --http` replicas on one redis-server %s (on its unix socket, reached through a loopback TCP relay, HAProxy), %d legacy hosts connected "
                        + "half to each, then %d `tools/call`s spread over them, a `tools/list` from each, and 100 calls "
                        + "from a modern host. Bytes from `MEMORY USAGE` of each session's key (median); round trips from `INFO commandstats` after `CONFIG RESETSTAT`, "
                        + "commands Lua scripts run inside an EVAL left out (they are not round trips).%n%n",
                cost.redisVersion(), cost.sessions(), cost.calls()));
        md.append("| | measured |\n| --- | --- |\n");
        md.append(fmt("| Redis memory per session, its key | %d bytes |%n", cost.bytesPerSession()));
        md.append(fmt("| round trips per host connect (initialize, initialized, listen GET; new pooled connections' HELLO and CLIENT SETNAME amortised in) | %.2f |%n",
                cost.tripsPerSessionOpened()));
        md.append(fmt("| round trips per legacy `tools/call` | %.2f |%n", cost.tripsPerCall()));
        md.append(fmt("| round trips per legacy `tools/list` | %.2f |%n", cost.tripsPerList()));
        md.append(fmt("| round trips per modern `tools/call` | %.2f |%n%n", cost.tripsPerModernCall()));
        md.append("Commands while hosts connected: `").append(cost.openCommands()).append("`; during the calls: `")
                .append(cost.callCommands()).append("` (heartbeats included: one EVAL per replica every 5 s).\n");
        targets.add(new Target("Redis round trips per legacy call", "1 (one script)",
                fmt("%.2f", cost.tripsPerCall()), cost.tripsPerCall() <= 1.05));
        sections.add(md.toString());
    }

    void telemetry(List<TelemetryBench.Cost> costs) {
        StringBuilder md = new StringBuilder("## What metrics and traces cost a call\n\n");
        md.append("Three gateways side by side in front of one legacy HTTP upstream: one with metrics on (the default: ")
                .append("both semantic-convention histograms and the mcpx_ counters recorded per call), one with ")
                .append("`mcpx.metrics: false`, and one with metrics on and every call traced (`mcpx.telemetry`, ")
                .append("sampling 1: a SERVER and a CLIENT span per call, batched and sent over OTLP/HTTP to a ")
                .append("loopback endpoint that takes every export); interleaved rounds, ")
                .append(costs.isEmpty() ? 0 : costs.getFirst().callers())
                .append(" callers; the gateway's user + system CPU time from /proc over each round divided by its calls; ")
                .append("medians. No scrapes during the rounds.\n\n");
        md.append("| gateway | rounds | CPU us per call | calls/s |\n|---|---:|---:|---:|\n");
        for (TelemetryBench.Cost c : costs) {
            md.append(fmt("| %s | %d | %.1f | %.0f |%n", c.setup(), c.rounds(), c.cpuMicrosPerCall(), c.callsPerSecond()));
        }
        if (costs.size() == 3) {
            TelemetryBench.Cost off = costs.get(1);
            double metrics = costs.get(0).cpuMicrosPerCall() / off.cpuMicrosPerCall() - 1;
            targets.add(new Target("CPU per call with metrics on", "at most 10% more than off",
                    fmt("%+.1f%% (%.1f vs %.1f us)", metrics * 100, costs.get(0).cpuMicrosPerCall(),
                            off.cpuMicrosPerCall()), metrics <= 0.10));
            double traced = costs.get(2).cpuMicrosPerCall() / off.cpuMicrosPerCall() - 1;
            targets.add(new Target("CPU per call with metrics on and every call traced", "at most 10% more than off",
                    fmt("%+.1f%% (%.1f vs %.1f us)", traced * 100, costs.get(2).cpuMicrosPerCall(),
                            off.cpuMicrosPerCall()), traced <= 0.10));
        }
        sections.add(md.toString());
    }

    void jmh(List<JmhSection.Score> scores) {
        StringBuilder md = new StringBuilder("## Microbenchmarks (JMH 1.37)\n\n");
        md.append("One fork, 2 x 1 s warm-up, 3 x 1 s measurement each; average time per operation ")
                .append("(± is JMH's 99.9% error). Sources in `bench/src/main/java/dev/mcpx/bench/jmh/`.\n\n");
        md.append("| benchmark | params | score | ± | unit |\n|---|---|---:|---:|---|\n");
        for (JmhSection.Score s : scores) {
            md.append(fmt("| %s | %s | %.3f | %.3f | %s |%n", s.benchmark(), s.params(), s.score(), s.error(), s.unit()));
        }
        sections.add(md.toString());
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# mcpx benchmarks\n\n");
        md.append("Written by `bench/run`; every number in the tables below was measured in the run described here ")
                .append("(the Findings at the end are hand-written notes from profiling runs, each dated). ");
        md.append("The machine is shared with other builds and tests, so absolute figures are noisy: read the ratios, ");
        md.append("which come from the same run, and rerun before drawing conclusions from small differences.\n\n");
        md.append("## Run\n\n");
        md.append(Machine.describe(started, commit)).append('\n');
        md.append("Reproduce: `bench/run").append(options.commandLine().isEmpty() ? "" : " " + options.commandLine())
                .append("` (builds what it needs; needs `.tools/setup` once).\n\n");
        md.append("## Targets (issue 8)\n\n");
        md.append("| target | goal | measured | |\n|---|---|---|---|\n");
        for (Target t : targets) {
            md.append(fmt("| %s | %s | %s | %s |%n", t.what(), t.goal(), t.measured(), t.met() ? "met" : "**missed**"));
        }
        md.append('\n');
        sections.forEach(s -> md.append(s).append('\n'));
        Path findings = env.root().resolve("bench/findings.md");
        if (Files.exists(findings)) {
            try {
                md.append(Files.readString(findings));
            } catch (IOException e) {
                md.append("(bench/findings.md could not be read: ").append(e.getMessage()).append(")\n");
            }
        }
        return md.toString();
    }

    void write(Path out) throws IOException {
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, markdown());
    }

    static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}

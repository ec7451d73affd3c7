package dev.mcpx.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Collects the sections' results and renders docs/benchmarks.md (also printed). */
final class Report {

    private final BenchMain.Options options;
    private final BenchEnv env;
    private final ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
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
        md.append("Each cell is the median of ").append(options.rounds()).append(" rounds of ")
                .append(options.windowMillis()).append(" ms (after ").append(options.warmupMillis())
                .append(" ms warm-up); the set-ups take turns within each round. `vs direct` divides by the direct ")
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

    void section(String markdown) {
        sections.add(markdown);
    }

    void target(Target target) {
        targets.add(target);
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# mcpx benchmarks\n\n");
        md.append("Written by `bench/run`; every number below was measured in the run described here. ");
        md.append("The machine is shared with other builds and tests, so absolute figures are noisy: read the ratios, ");
        md.append("which come from the same run, and rerun before drawing conclusions from small differences.\n\n");
        md.append("## Run\n\n");
        md.append(Machine.describe(started)).append('\n');
        md.append("Reproduce: `bench/run").append(options.commandLine().isEmpty() ? "" : " " + options.commandLine())
                .append("` (builds what it needs; needs `.tools/setup` once).\n\n");
        md.append("## Targets (issue 8)\n\n");
        md.append("| target | goal | measured | |\n|---|---|---|---|\n");
        for (Target t : targets) {
            md.append(fmt("| %s | %s | %s | %s |%n", t.what(), t.goal(), t.measured(), t.met() ? "met" : "**missed**"));
        }
        md.append('\n');
        sections.forEach(s -> md.append(s).append('\n'));
        return md.toString();
    }

    void write(Path out) throws IOException {
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, markdown());
    }

    static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    static String today() {
        return DateTimeFormatter.ISO_LOCAL_DATE.format(ZonedDateTime.now(ZoneOffset.UTC));
    }
}

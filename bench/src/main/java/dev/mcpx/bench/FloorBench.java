package dev.mcpx.bench;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How far the hop is from the floor of its stack (issue 17): in one run, against one fast legacy
 * HTTP upstream, with one driver ({@code wrk} at 1 and 16 connections after a warm-up), the CPU
 * per call of a hand-written blocking proxy ({@link SocketFloorProxy}), of a bare proxy on mcpx's
 * own HTTP stack ({@link JettyFloorProxy}) in the model mcpx's hop had and in the one it has, of
 * two other servers a front could stand on ({@link JdkServerFloorProxy}, {@link HelidonFloorProxy}),
 * and of mcpx, as {@code bin/mcpx} starts it and with C2
 * on (the floors' JIT). A target below the floor of a stack cannot be met by
 * tuning the code on top of it.
 */
final class FloorBench {

    /** C2 keeps compiling the hop for 20-30 s at one connection; the floors get the same warm-up. */
    static final int WARM_UP_SECONDS = 30;
    static final int SECONDS = 5;
    private static final Pattern LISTENING = Pattern.compile("listening on (http\\S+/mcp)");

    /**
     * A floor proxy: its row's name, its main class, the arguments after the upstream's URL, and
     * whether it runs C1 only, as bin/mcpx runs the gateway on 2 cores.
     */
    record Floor(String name, Class<?> main, List<String> args, boolean c1Only) {
        String logName() {
            return main.getSimpleName() + args.stream().map(arg -> "-" + arg).collect(java.util.stream.Collectors.joining())
                    + (c1Only ? "-c1" : "");
        }
    }

    static final List<Floor> FLOORS = List.of(
            new Floor("SocketFloorProxy", SocketFloorProxy.class, List.of(), false),
            new Floor("SocketFloorProxy, C1 only", SocketFloorProxy.class, List.of(), true),
            new Floor("JettyFloorProxy", JettyFloorProxy.class, List.of("virtual"), false),
            new Floor("JettyFloorProxy, platform threads", JettyFloorProxy.class, List.of("platform"), false),
            new Floor("JettyFloorProxy, platform threads, C1 only", JettyFloorProxy.class, List.of("platform"), true),
            new Floor("JdkServerFloorProxy, platform threads", JdkServerFloorProxy.class, List.of(), false),
            new Floor("JdkServerFloorProxy, platform threads, C1 only", JdkServerFloorProxy.class, List.of(), true),
            new Floor("HelidonFloorProxy, virtual threads", HelidonFloorProxy.class, List.of(), false),
            new Floor("HelidonFloorProxy, virtual threads, C1 only", HelidonFloorProxy.class, List.of(), true));

    /** One proxy at 1 and at 16 connections. */
    record Row(String setup, WrkRun.Wrk one, WrkRun.Wrk sixteen) {
    }

    record Result(List<Row> rows, String wrkMissing) {
    }

    private FloorBench() {
    }

    static Result run(BenchEnv env) throws Exception {
        String wrk = HopBench.wrkPath();
        if (wrk == null) {
            return new Result(List.of(), "wrk is not installed (apt-get install -y wrk): the floor was not measured");
        }
        List<Row> rows = new ArrayList<>();
        try (FastUpstream upstream = FastUpstream.start(FastUpstream.Era.LEGACY, 1)) {
            rows.add(measure(env, wrk, "direct", upstream.url(), null, "echo", -1));
            // -Dmcpx.bench.floors=NAME;NAME...: only the floors whose row names begin so (names hold commas)
            String only = System.getProperty("mcpx.bench.floors", "");
            for (Floor floor : FLOORS) {
                if (!only.isEmpty() && java.util.Arrays.stream(only.split(";")).noneMatch(floor.name()::startsWith)) {
                    continue;
                }
                try (ChildProcess child = ChildProcess.start("floor-" + floor.logName(),
                        javaCommand(floor, upstream.url()), Map.of(), env.logDir(), FloorBench::listeningUrl)) {
                    URI url = URI.create(child.awaitListening(Duration.ofSeconds(60)));
                    rows.add(measure(env, wrk, floor.name(), url, null, "echo", child.pid()));
                }
            }
            Path config = new GatewayConfigFile().http("legacy", upstream.url()).write(env.logDir(), "floor.json");
            // as bin/mcpx starts it (C1 only on 2 cores), then with C2 on as the floors run
            for (Map.Entry<String, Map<String, String>> jit : List.of(Map.entry("mcpx", Map.of("MCPX_JIT", "")),
                    Map.entry("mcpx, MCPX_JIT=tiered", Map.of("MCPX_JIT", "tiered")))) {
                try (McpxGateway gateway = McpxGateway.start(env, "mcpx-floor", config, jit.getValue())) {
                    HopBench.awaitUpstreamsUp(gateway.url());
                    rows.add(measure(env, wrk, jit.getKey(), gateway.url(), HopBench.initializeSession(gateway.url()),
                            "legacy__echo", gateway.process().pid()));
                }
            }
        }
        return new Result(rows, null);
    }

    private static Row measure(BenchEnv env, String wrk, String setup, URI url, String session, String tool, long pid)
            throws Exception {
        WrkRun.run(env, wrk, setup + " warm-up", url, session, tool, pid, 1, WARM_UP_SECONDS);
        WrkRun.Wrk one = WrkRun.run(env, wrk, setup, url, session, tool, pid, 1, SECONDS);
        WrkRun.Wrk sixteen = WrkRun.run(env, wrk, setup, url, session, tool, pid, 16, SECONDS);
        if (one.badAnswers() + sixteen.badAnswers() > 0) {
            throw new IllegalStateException(setup + ": " + (one.badAnswers() + sixteen.badAnswers()) + " answers were no result");
        }
        System.err.printf("floor %-18s 1 conn %6.0f calls/s cpu %5.0f us/call %4.1f cs/call | 16 conns %6.0f calls/s"
                        + " cpu %5.0f us/call %4.1f cs/call%n", setup, one.callsPerSecond(), one.cpuMicrosPerCall(),
                one.switchesPerCall(), sixteen.callsPerSecond(), sixteen.cpuMicrosPerCall(), sixteen.switchesPerCall());
        return new Row(setup, one, sixteen);
    }

    /** The bench's own JVM and class path, with the collector bin/mcpx picks on this machine's size. */
    private static List<String> javaCommand(Floor floor, URI upstream) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java));
        if (Runtime.getRuntime().availableProcessors() <= 2) {
            command.addAll(List.of("-XX:+UseSerialGC", "-Xms8m"));
        }
        if (floor.c1Only()) {
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), floor.main().getName(), upstream.toString()));
        command.addAll(floor.args());
        return command;
    }

    private static Optional<String> listeningUrl(String line) {
        Matcher matcher = LISTENING.matcher(line);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }
}

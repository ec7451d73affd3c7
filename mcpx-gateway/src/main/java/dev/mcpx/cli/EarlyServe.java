package dev.mcpx.cli;

import dev.mcpx.config.ConfigLocation;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.transport.UpstreamEndpoint;
import dev.mcpx.transport.stdio.EarlyChildren;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code mcpx serve}'s config, read and its stdio upstreams started on a second core while picocli
 * builds the command's model (a fifth of a second before a gateway would start them), so those
 * children start up while mcpx does. The command then takes this config instead of reading the
 * file again, and its gateway takes the children over ({@link EarlyChildren}). What needs no
 * logging ({@link #prepare}) runs while the main thread starts Logback.
 */
final class EarlyServe {

    private static final Set<String> NOT_SERVING = Set.of("-h", "--help", "-V", "--version");

    /** The early read, when this process's command line is a {@code serve} that will read a config. */
    private static volatile CompletableFuture<Read> early;

    private record Read(Path option, GatewayConfig config) {
    }

    /** An early read under way: the {@code -c} option (null: none given) and the future the command waits on. */
    record Prepared(Path option, CompletableFuture<Read> pending) {
    }

    /** Parsed once, so Jackson's class initialisation (its locale data, BigDecimal) is over by the config's turn. */
    private static final String JACKSON_WARM_UP = "{\"mcpServers\": {\"a\": {\"command\": \"b\", \"args\": [\"-c\", 1.5]}}}";

    private EarlyServe() {
    }

    /** Called before anything else runs, so the command never reads the config before it knows an early read is coming. */
    static void expect(String[] args) {
        if (args.length > 0 && args[0].equals("serve") && Arrays.stream(args).noneMatch(NOT_SERVING::contains)) {
            early = new CompletableFuture<>();
        }
    }

    /**
     * The part of the early read that logs nothing, so it may run before Logback has started (SLF4J
     * would hand out substitute loggers meanwhile): the {@code -c} option, and Jackson's first parse
     * (50-90 ms of class initialisation, most of the config read). Null when there is no early read.
     */
    static Prepared prepare(String[] args) {
        CompletableFuture<Read> pending = early;
        if (pending == null) {
            return null;
        }
        try {
            Path option = configOption(Arrays.asList(args).subList(1, args.length));
            JsonMapper.builder().build().readTree(JACKSON_WARM_UP);
            return new Prepared(option, pending);
        } catch (RuntimeException e) {
            pending.completeExceptionally(e);
            return null;
        }
    }

    /** Reads the config and starts its enabled stdio upstreams; any mistake is left to the command to report. */
    static void read(Prepared prepared) {
        if (prepared == null) {
            return;
        }
        try {
            Logging.setRoot(System.getenv().getOrDefault("MCPX_LOG", "INFO"));
            GatewayConfig config = ConfigLocation.load(prepared.option(), System.getenv());
            for (UpstreamConfig upstream : config.enabled()) {
                if (upstream.endpoint() instanceof UpstreamEndpoint.Stdio stdio) {
                    EarlyChildren.start(stdio);
                }
            }
            prepared.pending().complete(new Read(prepared.option(), config));
        } catch (RuntimeException e) {
            prepared.pending().completeExceptionally(e);
        }
    }

    /** The early read's config, once, when it read the file {@code option} names; else empty (read it yourself). */
    static Optional<GatewayConfig> config(Path option) {
        CompletableFuture<Read> pending = early;
        early = null;
        if (pending == null) {
            return Optional.empty();
        }
        try {
            Read read = pending.join();
            return Objects.equals(read.option(), option) ? Optional.of(read.config()) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code -c FILE} as picocli reads it, every other argument left alone. */
    private static Path configOption(List<String> serveArgs) {
        CommandSpec spec = CommandSpec.create();
        spec.addOption(OptionSpec.builder("-c", "--config").type(Path.class).build());
        CommandLine parser = new CommandLine(spec);
        parser.setUnmatchedArgumentsAllowed(true);
        return parser.parseArgs(serveArgs.toArray(String[]::new)).matchedOptionValue("-c", null);
    }
}

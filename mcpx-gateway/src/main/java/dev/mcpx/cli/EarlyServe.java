package dev.mcpx.cli;

import dev.mcpx.config.ConfigLoader;
import dev.mcpx.config.ConfigLocation;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.transport.UpstreamEndpoint;
import dev.mcpx.transport.stdio.EarlyChildren;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code mcpx serve}'s config, read and (for a stdio gateway) its stdio upstreams started on a
 * second core while picocli builds the command's model (a fifth of a second before a gateway would
 * start them), so those children start up while mcpx does. The command then takes this config instead of reading the
 * file again, and its gateway takes the children over ({@link EarlyChildren}). What needs no
 * logging ({@link #prepare}) runs while the main thread starts Logback.
 */
final class EarlyServe {

    private static final Set<String> NOT_SERVING = Set.of("-h", "--help", "-V", "--version");

    /** The early read, when this process's command line is a {@code serve} that will read a config. */
    private static volatile CompletableFuture<Read> early;

    private record Read(Path option, GatewayConfig config) {
    }

    /**
     * An early read under way: the {@code -c} option (null: none given), whether the gateway serves
     * stdio (an HTTP gateway starts its front before any upstream, so nothing starts early), and the
     * future the command waits on.
     */
    record Prepared(Path option, boolean stdio, CompletableFuture<Read> pending) {
    }

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
     * would hand out substitute loggers meanwhile): the {@code -c} option, and a first parse of a
     * config (the class initialisation of Jackson's parser and of the config's parsers). Null when
     * there is no early read.
     */
    static Prepared prepare(String[] args) {
        CompletableFuture<Read> pending = early;
        if (pending == null) {
            return null;
        }
        try {
            Path option = configOption(Arrays.asList(args).subList(1, args.length));
            new ConfigLoader(Map.of()).parse(Main.WARM_UP_CONFIG, Path.of("mcpx-warm-up.json"));
            boolean http = Arrays.stream(args).anyMatch(arg -> arg.equals("--http") || arg.startsWith("--http="));
            return new Prepared(option, !http, pending);
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
                if (prepared.stdio() && upstream.endpoint() instanceof UpstreamEndpoint.Stdio stdio) {
                    EarlyChildren.start(stdio);
                }
            }
            prepared.pending().complete(new Read(prepared.option(), config));
        } catch (RuntimeException e) {
            prepared.pending().completeExceptionally(e);
        }
    }

    /** For an HTTP gateway, what its front's start would do first on the main thread, while picocli builds its model there. */
    static void prepareFront(Prepared prepared) {
        if (prepared != null && !prepared.stdio()) {
            HttpFront.prepare();
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

    /**
     * {@code -c FILE} as picocli reads it (null: not given), found without picocli, whose model
     * takes 25-40 ms to build at launch. A command line it is not sure picocli reads the same way
     * (an {@code @file}, {@code --}, the option twice, a value that looks like an option) is
     * refused, so nothing starts early; the command compares its own reading anyway.
     */
    static Path configOption(List<String> serveArgs) {
        String value = null;
        for (int i = 0; i < serveArgs.size(); i++) {
            String arg = serveArgs.get(i);
            String found;
            if (arg.startsWith("@") || arg.equals("--")) {
                throw new IllegalArgumentException("not read early: " + arg);
            } else if (arg.equals("-c") || arg.equals("--config")) {
                found = i + 1 < serveArgs.size() ? serveArgs.get(++i) : null;
            } else if (arg.startsWith("--config=")) {
                found = arg.substring("--config=".length());
            } else if (arg.startsWith("-c=")) {
                found = arg.substring("-c=".length());
            } else if (arg.startsWith("-c")) {
                found = arg.substring("-c".length());
            } else {
                continue;
            }
            if (found == null || found.isEmpty() || found.startsWith("-") || found.startsWith("@") || value != null) {
                throw new IllegalArgumentException("not read early: " + arg);
            }
            value = found;
        }
        return value == null ? null : Path.of(value);
    }
}

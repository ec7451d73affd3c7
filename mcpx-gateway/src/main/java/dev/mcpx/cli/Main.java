package dev.mcpx.cli;

import dev.mcpx.client.McpxVersion;
import dev.mcpx.config.ConfigLoader;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.transport.http.JettyCacheLines;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code mcpx} command line. Exit codes: 0 success, 1 MCP or tool error, 2 usage or config error. */
@Command(name = "mcpx", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT, versionProvider = Main.Version.class,
        description = "A dual-era MCP gateway that heals stale upstreams.")
public final class Main implements Runnable {

    static final int OK = 0;
    static final int MCP_ERROR = 1;
    static final int USAGE = 2;

    static final String WARM_UP_CONFIG = "{\"mcpServers\": {\"warm-up\": {\"command\": \"mcpx\", \"args\": []}}}";
    private static final String WARM_UP_REQUEST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";

    /** The subcommands, in the order {@code --help} lists them. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(ServeCommand.class, ToolsCommand.class, CallCommand.class,
            ProbeCommand.class, ConformanceClientCommand.class, SetupCommand.class, DoctorCommand.class,
            LoginCommand.class, LogoutCommand.class, CommandLine.HelpCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        EarlyServe.expect(args);
        CompletableFuture<Void> logging = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("mcpx-warm-up").start(() -> {
            EarlyServe.Prepared prepared = EarlyServe.prepare(args);
            // SLF4J hands a logger asked for on another thread while Logback starts a substitute
            logging.join();
            EarlyServe.read(prepared);
            EarlyServe.prepareFront(prepared);
            warmUp();
        });
        LoggerFactory.getILoggerFactory();
        logging.complete(null);
        System.exit(run(args));
    }

    /**
     * What every command that reads a config does first and its command line does not decide, on
     * a second core while picocli builds its model (single-threaded), so a gateway starts its
     * upstreams sooner: the proxy class the JDK makes for each annotation type picocli reads, the
     * first config parse, the first JSON-RPC round trip.
     */
    static void warmUp() {
        try {
            for (Class<?> command : SUBCOMMANDS) {
                command.getAnnotations();
                for (Field field : command.getDeclaredFields()) {
                    field.getAnnotations();
                }
            }
            new ConfigLoader(Map.of()).parse(WARM_UP_CONFIG, Path.of("mcpx-warm-up.json"));
            JsonRpcCodec codec = new JsonRpcCodec();
            codec.encode(codec.decode(WARM_UP_REQUEST));
        } catch (RuntimeException e) {
            // nothing depends on it: the real parse reports whatever is wrong
        }
    }

    /** Runs the command line and returns the exit code, without exiting (tests call this). */
    public static int run(String... args) {
        JettyCacheLines.preset();
        CommandLine cli = commandLine(args);
        cli.setExitCodeExceptionMapper(ExitCodes::of);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("mcpx: " + ExitCodes.describe(e));
            return ExitCodes.of(e);
        });
        cli.getCommandSpec().exitCodeOnInvalidInput(USAGE);
        return cli.execute(args);
    }

    /**
     * The command line for {@code args}. Picocli builds a subcommand's model by reflection when it
     * is added, a third of the CPU before a gateway could start its upstreams: a command line that
     * begins with one of mcpx's own commands (not {@code help}) gets that one alone, which is the
     * only one picocli would run; any other (none, an option, {@code help}, a typo) gets them all.
     */
    static CommandLine commandLine(String... args) {
        CommandLine cli = new CommandLine(new Main());
        Class<?> named = args.length == 0 ? null : SUBCOMMANDS.stream()
                .filter(command -> command != CommandLine.HelpCommand.class && names(command).contains(args[0]))
                .findFirst().orElse(null);
        for (Class<?> command : SUBCOMMANDS) {
            if (named == null || command == named) {
                cli.addSubcommand(command);
            }
        }
        return cli;
    }

    private static List<String> names(Class<?> command) {
        Command declared = command.getAnnotation(Command.class);
        List<String> names = new ArrayList<>(List.of(declared.aliases()));
        names.add(declared.name());
        return names;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"mcpx " + McpxVersion.current()};
        }
    }
}

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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ScopeType;

/**
 * The {@code mcpx} command line. Exit codes: 0 success, 1 MCP or tool error, 2 usage or config
 * error. Its model, like {@code serve}'s, is built in code: every launch of a gateway builds it.
 */
public final class Main implements Runnable {

    static final int OK = 0;
    static final int MCP_ERROR = 1;
    static final int USAGE = 2;

    static final String WARM_UP_CONFIG = "{\"mcpServers\": {\"warm-up\": {\"command\": \"mcpx\", \"args\": []}}}";
    private static final String WARM_UP_REQUEST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";

    /** The subcommands after {@code serve}, in the order {@code --help} lists them; picocli reads their annotations. */
    private static final List<Class<?>> ANNOTATED_COMMANDS = List.of(ToolsCommand.class, CallCommand.class,
            ProbeCommand.class, ConformanceClientCommand.class, SetupCommand.class, DoctorCommand.class,
            LoginCommand.class, LogoutCommand.class, CommandLine.HelpCommand.class);

    private final CommandSpec spec = CommandSpec.wrapWithoutInspection(this);

    private Main() {
        // INHERIT: every subcommand gets the version provider and exit codes
        spec.name("mcpx").scopeType(ScopeType.INHERIT).versionProvider(new Version());
        spec.usageMessage().description("A dual-era MCP gateway that heals stale upstreams.");
        addHelpOptions(spec);
    }

    /**
     * {@code -h} and {@code -V} as picocli's standard help options are, which it would mix in by
     * reflection. Not inherited: {@code help} has its own {@code -h}.
     */
    static void addHelpOptions(CommandSpec command) {
        command.addOption(OptionSpec.builder("-h", "--help").type(boolean.class).usageHelp(true)
                .description("Show this help message and exit.").build());
        command.addOption(OptionSpec.builder("-V", "--version").type(boolean.class).versionHelp(true)
                .description("Print version information and exit.").build());
    }

    public static void main(String[] args) {
        EarlyServe.expect(args);
        CompletableFuture<Void> logging = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("mcpx-warm-up").start(() -> {
            EarlyServe.Prepared prepared = EarlyServe.prepare(args);
            // SLF4J hands a logger asked for on another thread while Logback starts a substitute
            logging.join();
            EarlyServe.read(prepared);
            EarlyServe.prepareFront(prepared);
            warmUp(prepared == null);
        });
        LoggerFactory.getILoggerFactory();
        logging.complete(null);
        System.exit(run(args));
    }

    /**
     * What a command does first and its command line does not decide, on a second core while the
     * main thread starts Logback and picocli builds its model (single-threaded): the first JSON-RPC
     * round trip and, for a command whose config {@link EarlyServe} did not read ({@code serve}'s
     * model is built in code), the first config parse and the proxy class the JDK makes for each
     * annotation type picocli reads.
     */
    static void warmUp(boolean annotatedCommand) {
        try {
            if (annotatedCommand) {
                for (Class<?> command : ANNOTATED_COMMANDS) {
                    command.getAnnotations();
                    for (Field field : command.getDeclaredFields()) {
                        field.getAnnotations();
                    }
                }
                new ConfigLoader(Map.of()).parse(WARM_UP_CONFIG, Path.of("mcpx-warm-up.json"));
            }
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
     * The command line for {@code args}. Picocli builds an annotated subcommand's model by
     * reflection when it is added: a command line that begins with one of mcpx's own commands (not
     * {@code help}) gets that one alone, which is the only one picocli would run; any other (none,
     * an option, {@code help}, a typo) gets them all.
     */
    static CommandLine commandLine(String... args) {
        CommandLine cli = new CommandLine(new Main().spec);
        String first = args.length == 0 ? null : args[0];
        if (ServeCommand.NAME.equals(first)) {
            return cli.addSubcommand(ServeCommand.NAME, ServeCommand.commandLine());
        }
        Class<?> named = first == null ? null : ANNOTATED_COMMANDS.stream()
                .filter(command -> command != CommandLine.HelpCommand.class && names(command).contains(first))
                .findFirst().orElse(null);
        if (named == null) {
            cli.addSubcommand(ServeCommand.NAME, ServeCommand.commandLine());
        }
        for (Class<?> command : ANNOTATED_COMMANDS) {
            if (named == null || command == named) {
                CommandLine sub = new CommandLine(command);
                if (command != CommandLine.HelpCommand.class) {
                    addHelpOptions(sub.getCommandSpec());
                }
                cli.addSubcommand(sub);
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

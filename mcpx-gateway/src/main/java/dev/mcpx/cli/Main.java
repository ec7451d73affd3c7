package dev.mcpx.cli;

import dev.mcpx.client.McpxVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code mcpx} command line. Exit codes: 0 success, 1 MCP or tool error, 2 usage or config error. */
@Command(name = "mcpx", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT, versionProvider = Main.Version.class,
        description = "A dual-era MCP gateway that heals stale upstreams.",
        subcommands = {ServeCommand.class, ToolsCommand.class, CallCommand.class, ProbeCommand.class,
                ConformanceClientCommand.class, SetupCommand.class, DoctorCommand.class, LoginCommand.class,
                LogoutCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    static final int OK = 0;
    static final int MCP_ERROR = 1;
    static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code, without exiting (tests call this). */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExitCodeExceptionMapper(ExitCodes::of);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("mcpx: " + ExitCodes.describe(e));
            return ExitCodes.of(e);
        });
        cli.getCommandSpec().exitCodeOnInvalidInput(USAGE);
        return cli.execute(args);
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

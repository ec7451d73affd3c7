package dev.mcpx.cli;

import dev.mcpx.config.ConfigLocation;
import dev.mcpx.setup.Host;
import dev.mcpx.setup.HostSetup;
import dev.mcpx.setup.McpxCommand;
import dev.mcpx.setup.Os;
import dev.mcpx.setup.SetupPlan;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mcpx setup HOST [--dry-run | --undo]}: move a host's servers into mcpx and point the host at it. */
@Command(name = "setup", description = {
        "Move the MCP servers of HOST (claude-desktop, claude-code, cursor, vscode, windsurf) into mcpx's config "
                + "and point HOST at `mcpx serve`; the host file's original is kept beside it for --undo."})
final class SetupCommand implements Callable<Integer> {

    @Parameters(paramLabel = "HOST", description = "claude-desktop, claude-code, cursor, vscode or windsurf.")
    String hostName;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "mcpx's config to move the servers into. Default: $MCPX_CONFIG, else ~/.config/mcpx/mcpx.json.")
    Path config;

    @Option(names = "--config-path", paramLabel = "FILE", description = "The host's config file, instead of where the host keeps it.")
    Path hostFile;

    @Option(names = "--dry-run", description = "Show what would change, as a diff; write nothing.")
    boolean dryRun;

    @Option(names = "--undo", description = "Restore the host's file and take out of mcpx's config what setup added.")
    boolean undo;

    @Override
    public Integer call() {
        Host host = Host.byId(hostName).orElseThrow(() -> new UsageException("unknown host \"" + hostName + "\"; known: "
                + Arrays.stream(Host.values()).map(Host::id).collect(Collectors.joining(", "))));
        if (dryRun && undo) {
            throw new UsageException("--dry-run and --undo do not go together");
        }
        Map<String, String> environment = System.getenv();
        Os os = Os.current();
        Path file = hostFile != null ? hostFile : host.configFile(os, environment);
        Path mcpxConfig = ConfigLocation.find(config, environment).orElse(ConfigLocation.defaultPath(environment));
        HostSetup setup = new HostSetup(host, os, file, mcpxConfig, McpxCommand.current());
        if (undo) {
            setup.undo().forEach(line -> System.err.println("mcpx: " + line));
            return Main.OK;
        }
        SetupPlan plan = setup.plan();
        if (dryRun) {
            System.out.print(plan.diff());
            report(plan.report(), "mcpx: (dry run) ");
            return Main.OK;
        }
        setup.apply(plan);
        report(plan.report(), "mcpx: ");
        System.err.println("mcpx: " + host.title() + " now starts mcpx (" + file + "); restart it to apply; "
                + "`mcpx setup --undo " + host.id() + "` puts it back");
        return Main.OK;
    }

    private static void report(List<String> lines, String prefix) {
        lines.forEach(line -> System.err.println(prefix + line));
    }
}

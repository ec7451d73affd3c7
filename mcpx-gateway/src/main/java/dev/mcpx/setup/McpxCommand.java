package dev.mcpx.setup;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a host starts this mcpx: the launcher {@code bin/mcpx} names (system property
 * {@code mcpx.launcher}), else {@code java -jar mcpx.jar}, else java with this class path.
 */
public record McpxCommand(List<String> launcher) {

    private static final String MAIN = "dev.mcpx.cli.Main";

    public McpxCommand {
        launcher = List.copyOf(launcher);
    }

    public static McpxCommand current() {
        return from(System.getProperty("mcpx.launcher"), codeSource(),
                ProcessHandle.current().info().command().orElse("java"), System.getProperty("java.class.path"));
    }

    /** The launcher when named; else the jar this code came from; else the class path, made absolute. */
    static McpxCommand from(String launcher, Path codeSource, String java, String classPath) {
        if (launcher != null && !launcher.isBlank()) {
            return new McpxCommand(List.of(launcher));
        }
        if (codeSource != null && codeSource.toString().endsWith(".jar")) {
            return new McpxCommand(List.of(java, "-jar", codeSource.toAbsolutePath().toString()));
        }
        String absolute = Arrays.stream(classPath.split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
        return new McpxCommand(List.of(java, "-cp", absolute, MAIN));
    }

    /** {@code launcher serve -c CONFIG}: the stdio gateway on that config. */
    public List<String> serve(Path config) {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of("serve", "-c", config.toAbsolutePath().toString()));
        return command;
    }

    /**
     * Whether a host entry with this command line runs mcpx (any install, not only this one):
     * such an entry is the loop {@code setup} must not move into mcpx.
     */
    static boolean runsMcpx(String command, List<String> args) {
        // Either separator: a Windows host file can be read on any OS.
        String program = command.substring(Math.max(command.lastIndexOf('/'), command.lastIndexOf('\\')) + 1)
                .toLowerCase(Locale.ROOT).replaceFirst("\\.(cmd|bat|exe|sh)$", "");
        if (program.equals("mcpx")) {
            return true;
        }
        return args.stream().anyMatch(arg -> arg.equals(MAIN) || arg.endsWith("mcpx.jar")
                || arg.endsWith("/bin/mcpx") || arg.endsWith("\\bin\\mcpx"));
    }

    private static Path codeSource() {
        try {
            var source = McpxCommand.class.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return null;
        }
    }
}

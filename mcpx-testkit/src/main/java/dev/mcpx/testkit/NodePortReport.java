package dev.mcpx.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Node servers started on port 0 (server-everything, the npm proxies) log the 0 they were given,
 * not the port they got. A script preloaded with {@link #nodeArgs()} prints the real one as
 * {@code mcpx-testkit: listening on port N} on stderr, so nothing has to probe for a free port.
 */
public final class NodePortReport {

    private static final Pattern LINE = Pattern.compile("mcpx-testkit: listening on port (\\d+)");
    private static volatile Path script;

    private NodePortReport() {
    }

    /** The node options that preload the script: put them before the server's entry point. */
    public static List<String> nodeArgs() {
        return List.of("--require", script().toString());
    }

    /** The port a line of the server's output reports, if it is the script's line. */
    public static OptionalInt port(String line) {
        Matcher matcher = LINE.matcher(line);
        return matcher.find() ? OptionalInt.of(Integer.parseInt(matcher.group(1))) : OptionalInt.empty();
    }

    private static synchronized Path script() {
        if (script == null) {
            try (InputStream in = NodePortReport.class.getResourceAsStream("report-listening.cjs")) {
                if (in == null) {
                    throw new IllegalStateException("report-listening.cjs is missing from the testkit's resources");
                }
                Path file = Files.createTempFile("mcpx-report-listening", ".cjs");
                file.toFile().deleteOnExit();
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                script = file;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return script;
    }
}

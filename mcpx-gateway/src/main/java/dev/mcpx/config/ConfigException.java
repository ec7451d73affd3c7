package dev.mcpx.config;

import java.nio.file.Path;

/**
 * A configuration mistake, with where it is: the file (null for the built-in default), the
 * {@code mcpServers} entry (null when the mistake is not inside one) and what is wrong.
 * The command line turns it into exit code 2.
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String entry;
    private final String problem;

    public ConfigException(Path file, String entry, String problem) {
        super(describe(file, entry, problem));
        this.file = file;
        this.entry = entry;
        this.problem = problem;
    }

    public Path file() {
        return file;
    }

    public String entry() {
        return entry;
    }

    public String problem() {
        return problem;
    }

    private static String describe(Path file, String entry, String problem) {
        StringBuilder text = new StringBuilder(file == null ? "built-in config" : file.toString());
        if (entry != null) {
            text.append(": mcpServers.").append(entry);
        }
        return text.append(": ").append(problem).toString();
    }
}

package dev.mcpx.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Where the config file is: {@code -c FILE}, else {@code $MCPX_CONFIG}, else the default path. */
public final class ConfigLocation {

    private ConfigLocation() {
    }

    /** {@code ~/.config/mcpx/mcpx.json}, with {@code $HOME} winning over the JVM's idea of home. */
    public static Path defaultPath(Map<String, String> environment) {
        String home = environment.getOrDefault("HOME", System.getProperty("user.home"));
        return Path.of(home, ".config", "mcpx", "mcpx.json");
    }

    /**
     * The file to load, or empty when none was named and the default path does not exist (then
     * the built-in default applies). A named file is returned even if missing, so loading it
     * reports the mistake.
     */
    public static Optional<Path> find(Path option, Map<String, String> environment) {
        if (option != null) {
            return Optional.of(option);
        }
        String variable = environment.get("MCPX_CONFIG");
        if (variable != null && !variable.isBlank()) {
            return Optional.of(Path.of(variable));
        }
        Path fallback = defaultPath(environment);
        return Files.exists(fallback) ? Optional.of(fallback) : Optional.empty();
    }

    /** Loads the config {@link #find} picks, or the built-in default; the CLI's one entry point. */
    public static GatewayConfig load(Path option, Map<String, String> environment) {
        return find(option, environment)
                .map(file -> new ConfigLoader(environment).load(file))
                .orElseGet(() -> BuiltinConfig.create(environment));
    }
}

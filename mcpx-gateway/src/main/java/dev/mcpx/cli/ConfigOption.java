package dev.mcpx.cli;

import dev.mcpx.config.BuiltinConfig;
import dev.mcpx.config.ConfigLocation;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import java.nio.file.Path;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The {@code -c FILE} option shared by the commands that read the config: a mixin for the
 * annotated commands, {@link #option()} for {@code serve}, whose model is built in code.
 */
final class ConfigOption {

    static final String NAME = "--config";
    private static final String SHORT_NAME = "-c";
    private static final String LABEL = "FILE";
    private static final String DESCRIPTION = "Config file (mcpServers JSON). Default: $MCPX_CONFIG, else "
            + "~/.config/mcpx/mcpx.json, else the built-in default.";

    @Option(names = {SHORT_NAME, NAME}, paramLabel = LABEL, description = DESCRIPTION)
    Path file;

    static OptionSpec option() {
        return OptionSpec.builder(SHORT_NAME, NAME).paramLabel(LABEL).type(Path.class).description(DESCRIPTION).build();
    }

    GatewayConfig load() {
        return load(file);
    }

    /** The config {@code file} names (null: the default places), as the early read found it if it did. */
    static GatewayConfig load(Path file) {
        GatewayConfig config = EarlyServe.config(file).orElseGet(() -> ConfigLocation.load(file, System.getenv()));
        if (config.builtIn()) {
            System.err.println(BuiltinConfig.notice(System.getenv()));
        }
        return config;
    }

    static UpstreamConfig upstream(GatewayConfig config, String name) {
        return config.upstream(name).orElseThrow(() -> new UsageException("no server named \"" + name + "\" in "
                + config.source().map(Path::toString).orElse("the built-in default") + "; configured: "
                + config.upstreams().stream().map(UpstreamConfig::name).collect(Collectors.joining(", "))));
    }
}

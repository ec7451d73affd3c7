package dev.mcpx.cli;

import dev.mcpx.config.BuiltinConfig;
import dev.mcpx.config.ConfigLocation;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import java.nio.file.Path;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/** The {@code -c FILE} option shared by the commands that read the config. */
final class ConfigOption {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Config file (mcpServers JSON). Default: $MCPX_CONFIG, else ~/.config/mcpx/mcpx.json, else the built-in default.")
    Path file;

    GatewayConfig load() {
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

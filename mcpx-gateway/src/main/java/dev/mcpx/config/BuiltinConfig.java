package dev.mcpx.config;

import dev.mcpx.transport.UpstreamEndpoint;
import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What mcpx serves on a fresh machine with no config: one upstream, mcpx's own information
 * server, run as a stdio child of the same JVM and class path (so it works from the shaded jar).
 */
public final class BuiltinConfig {

    public static final String SERVER_NAME = "mcpx";
    public static final String INFO_SERVER_CLASS = "dev.mcpx.builtin.InfoServer";

    private BuiltinConfig() {
    }

    public static GatewayConfig create(Map<String, String> environment) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isBlank())
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
        UpstreamEndpoint.Stdio endpoint = new UpstreamEndpoint.Stdio(java,
                List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", classPath, INFO_SERVER_CLASS,
                        ConfigLocation.defaultPath(environment).toString()),
                Map.of(), null, false);
        return new GatewayConfig(Optional.empty(), List.of(UpstreamConfig.of(SERVER_NAME, endpoint)));
    }

    /** What the CLI prints on stderr when it runs on the built-in default. */
    public static String notice(Map<String, String> environment) {
        return "mcpx: no config file found, serving the built-in \"" + SERVER_NAME + "\" server only.\n"
                + "mcpx: to add servers, write " + ConfigLocation.defaultPath(environment)
                + " (or pass -c FILE, or set MCPX_CONFIG), e.g.\n"
                + "  {\"mcpServers\": {\"everything\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-everything\"]}}}";
    }
}

package dev.mcpx.cli;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ServerDescription;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpException;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code mcpx probe URL | -- COMMAND [ARGS...]}: what one upstream is, without a config. */
@Command(name = "probe", description = "Connect to one upstream and print its era, protocol version, server info, capabilities and tool count.")
final class ProbeCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "URL | COMMAND ARGS", description = "An http(s) URL, or (after --) a command that runs a stdio server.")
    List<String> target;

    @Override
    public Integer call() {
        Logging.quietUnlessAsked();
        try (McpClient client = McpClient.builder(endpoint()).name("probe").requestTimeout(Duration.ofSeconds(30)).build().connect()) {
            ServerDescription server = client.server();
            System.out.println("era:             " + server.era().name().toLowerCase(java.util.Locale.ROOT));
            System.out.println("protocolVersion: " + server.protocolVersion().wire());
            System.out.println("transport:       " + client.transportKind().label());
            System.out.println("server:          " + (server.name() + " " + server.version()).strip());
            System.out.println("capabilities:    " + (server.capabilities() == null ? "{}" : Json.write(server.capabilities())));
            String tools;
            try {
                tools = Integer.toString(client.listTools().size());
            } catch (McpException e) {
                tools = "unavailable (" + e.getMessage() + ")";
            }
            System.out.println("tools:           " + tools);
            return Main.OK;
        }
    }

    private UpstreamEndpoint endpoint() {
        String first = target.getFirst();
        if (target.size() == 1 && (first.startsWith("http://") || first.startsWith("https://"))) {
            try {
                return new UpstreamEndpoint.Http(URI.create(first), Map.of(), UpstreamEndpoint.HttpKind.AUTO);
            } catch (IllegalArgumentException e) {
                throw new UsageException("not a URL: " + first);
            }
        }
        return new UpstreamEndpoint.Stdio(first, target.subList(1, target.size()), Map.of(), null, true);
    }
}

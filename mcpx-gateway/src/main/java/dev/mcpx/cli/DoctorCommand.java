package dev.mcpx.cli;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ServerDescription;
import dev.mcpx.config.ConfigException;
import dev.mcpx.config.ConfigLocation;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.protocol.McpException;
import dev.mcpx.setup.Host;
import dev.mcpx.setup.HostServers;
import dev.mcpx.setup.Os;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code mcpx doctor [-c FILE]}: checks the config, reaches every enabled upstream, and reads the
 * hosts' configs for servers they start without mcpx. Exit 1 when something needs fixing.
 */
@Command(name = "doctor", description = "Check the config, reach every upstream (era, version, tools), "
        + "and find host configs with servers that bypass mcpx; print what to fix.")
final class DoctorCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Override
    public Integer call() throws InterruptedException {
        Logging.quietUnlessAsked();
        Map<String, String> environment = System.getenv();
        List<String> fixes = new ArrayList<>();
        GatewayConfig loaded;
        try {
            loaded = ConfigLocation.load(config.file, environment);
        } catch (ConfigException e) {
            System.out.println("config    " + e.getMessage());
            System.out.println("fix: correct the config; `mcpx serve` will not start with it");
            return Main.USAGE;
        }
        System.out.println("config    " + loaded.source().map(Path::toString).orElse("none (the built-in default)")
                + ": " + loaded.upstreams().size() + " servers, " + loaded.enabled().size() + " enabled");
        checkUpstreams(loaded, fixes);
        checkHosts(environment, loaded.source(), fixes);
        fixes.forEach(fix -> System.out.println("fix: " + fix));
        if (fixes.isEmpty()) {
            System.out.println("nothing to fix");
        }
        return fixes.isEmpty() ? Main.OK : Main.MCP_ERROR;
    }

    private static void checkUpstreams(GatewayConfig loaded, List<String> fixes) throws InterruptedException {
        List<UpstreamConfig> upstreams = loaded.upstreams();
        List<Future<String>> checks = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (UpstreamConfig upstream : upstreams) {
                checks.add(upstream.enabled() ? threads.submit(() -> reach(upstream)) : null);
            }
        }
        for (int i = 0; i < upstreams.size(); i++) {
            UpstreamConfig upstream = upstreams.get(i);
            if (checks.get(i) == null) {
                System.out.println("upstream  " + upstream.name() + ": disabled");
                continue;
            }
            try {
                System.out.println("upstream  " + upstream.name() + ": " + checks.get(i).get());
            } catch (ExecutionException e) {
                String why = e.getCause() instanceof McpException mcp ? mcp.getMessage() : String.valueOf(e.getCause());
                System.out.println("upstream  " + upstream.name() + ": unreachable: " + why);
                fixes.add(upstream.name() + " (" + upstream.transport() + ") cannot be reached: " + why
                        + "; check its command or URL, or set \"enabled\": false");
            }
        }
    }

    /** One line about an upstream that answered: era, version, server and tool count. */
    private static String reach(UpstreamConfig upstream) {
        try (McpClient client = upstream.clientBuilder().requestTimeout(upstream.startTimeout()).build().connect()) {
            ServerDescription server = client.server();
            return "ok, " + upstream.transport() + ", " + server.era().name().toLowerCase(Locale.ROOT) + " "
                    + server.protocolVersion().wire() + ", " + (server.name() + " " + server.version()).strip()
                    + ", " + client.listTools().size() + " tools";
        }
    }

    private static void checkHosts(Map<String, String> environment, Optional<Path> config, List<String> fixes) {
        Os os = Os.current();
        for (Host host : Host.values()) {
            Path file = host.configFile(os, environment);
            try {
                HostServers.Found found = HostServers.read(host, file);
                if (!found.bypassing().isEmpty()) {
                    String names = String.join(", ", found.bypassing());
                    System.out.println("host      " + host.id() + " (" + file + "): starts " + names + " itself");
                    fixes.add(host.title() + " starts " + names + " without mcpx; run `mcpx setup " + host.id() + "` to move them");
                }
                found.mcpxConfigs().forEach((name, served) -> {
                    if (config.isPresent() && !same(served, config.get())) {
                        System.out.println("host      " + host.id() + " (" + file + "): " + name + " serves " + served);
                        fixes.add(host.title() + "'s \"" + name + "\" serves " + served + ", not " + config.get()
                                + "; point its -c at the config you use");
                    }
                });
            } catch (ConfigException e) {
                System.out.println("host      " + host.id() + ": " + e.getMessage());
                fixes.add(e.getMessage());
            }
        }
    }

    private static boolean same(Path a, Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }
}

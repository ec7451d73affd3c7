package dev.mcpx.cli;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ServerDescription;
import dev.mcpx.config.ConfigException;
import dev.mcpx.config.ConfigLocation;
import dev.mcpx.config.FrontAuth;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.AuthorizationServer;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.protocol.McpException;
import dev.mcpx.setup.Host;
import dev.mcpx.setup.HostServers;
import dev.mcpx.setup.Os;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
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
 * {@code mcpx doctor [-c FILE]}: checks the config, reaches every enabled upstream and the
 * authorization server of {@code mcpx.auth}, and reads the hosts' configs for servers they start
 * without mcpx. Exit 1 when something needs fixing.
 */
@Command(name = "doctor", description = "Check the config, reach every upstream (era, version, tools) and "
        + "mcpx.auth's authorization server, "
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
        loaded.auth().ifPresent(auth -> checkAuth(auth, loaded, fixes));
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

    /**
     * {@code mcpx.auth}: the authorization server's metadata and keys are reachable as the front
     * will read them, and the resource is a URL hosts can reach the front at, as it is served.
     */
    private static void checkAuth(FrontAuth auth, GatewayConfig loaded, List<String> fixes) {
        checkResource(auth, loaded, fixes);
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER).build()) {
            AuthorizationServer.Keys keys = AuthorizationServer.keys(auth, http);
            int count = AuthorizationServer.keySet(keys.jwksUri()).getKeys().size();
            System.out.println("auth      issuer " + auth.issuer() + ": "
                    + (keys.metadata() == null ? "keys from mcpx.auth.jwksUri" : "metadata at " + keys.metadata())
                    + ", jwks_uri " + keys.jwksUri() + ", " + count + " signing keys");
            if (count == 0) {
                fixes.add("mcpx.auth: the keys at " + keys.jwksUri() + " are empty, so no access token can be checked; "
                        + "publish the authorization server's signing keys there");
            }
        } catch (AuthorizationServer.Unusable e) {
            System.out.println("auth      issuer " + auth.issuer() + ": " + e.getMessage());
            fixes.add("mcpx.auth.issuer " + auth.issuer() + " is not usable: " + e.getMessage()
                    + "; check that the authorization server is up and that the issuer is exactly its metadata's \"issuer\""
                    + (auth.jwksUri().isPresent() ? ", and mcpx.auth.jwksUri" : ", or set mcpx.auth.jwksUri"));
        }
    }

    /** The resource against the front's own address ({@code mcpx.http}) and TLS ({@code mcpx.tls}). */
    private static void checkResource(FrontAuth auth, GatewayConfig loaded, List<String> fixes) {
        Optional<InetSocketAddress> bound = loaded.http();
        boolean beyondLoopback = bound.isPresent() && !HttpSecurity.loopback(bound.get());
        if (auth.resource().isEmpty()) {
            System.out.println("auth      resource: not set, the front's own address (loopback only)");
            if (beyondLoopback) {
                fixes.add("mcpx.auth.resource is required: mcpx.http binds " + bound.get().getHostString()
                        + ", beyond loopback; set it to the URL hosts reach /mcp at (e.g. https://mcpx.example.com/mcp)");
            }
            return;
        }
        URI resource = auth.resource().get();
        List<String> wrong = new ArrayList<>();
        String path = resource.getRawPath() == null ? "" : resource.getRawPath().replaceAll("/+$", "");
        if (path.isEmpty()) {
            wrong.add("it names no endpoint, and hosts reach /mcp (e.g. " + resource.resolve("/mcp") + ")");
        }
        if (resource.getRawQuery() != null || resource.getRawFragment() != null) {
            wrong.add("a resource has no query or fragment (RFC 8707)");
        }
        if (loaded.tls().isPresent() && !"https".equalsIgnoreCase(resource.getScheme())) {
            wrong.add("the front serves TLS (mcpx.tls), so hosts reach it at https");
        }
        if (beyondLoopback && "http".equalsIgnoreCase(resource.getScheme())) {
            wrong.add("mcpx.http binds " + bound.get().getHostString() + " for other machines, which cannot reach a loopback URL");
        }
        if (bound.isPresent() && resource.getHost() != null && resource.getHost().equals(bound.get().getHostString())) {
            int port = resource.getPort() != -1 ? resource.getPort() : "https".equalsIgnoreCase(resource.getScheme()) ? 443 : 80;
            if (port != bound.get().getPort()) {
                wrong.add("it names port " + port + " of " + resource.getHost() + ", where the front binds port "
                        + bound.get().getPort() + " (mcpx.http)");
            } else if (!path.isEmpty() && !path.equals("/mcp")) {
                wrong.add("it names the front's own address, where the endpoint is /mcp, not " + path);
            }
        }
        System.out.println("auth      resource " + resource + (wrong.isEmpty() ? ": ok" : ": " + String.join("; ", wrong)));
        if (!wrong.isEmpty()) {
            fixes.add("mcpx.auth.resource " + resource + " is not where hosts reach the front: " + String.join("; ", wrong)
                    + "; set it to the URL hosts reach /mcp at");
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

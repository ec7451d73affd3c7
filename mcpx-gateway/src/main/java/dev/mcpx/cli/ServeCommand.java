package dev.mcpx.cli;

import dev.mcpx.client.McpxVersion;
import dev.mcpx.config.FrontToken;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.HostPort;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.front.http.Replication;
import dev.mcpx.front.http.SessionStoreException;
import dev.mcpx.cluster.RedisReplication;
import dev.mcpx.pool.ClientFactory;
import java.net.URI;
import java.util.Optional;
import dev.mcpx.front.stdio.StdioFront;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.telemetry.MetricsListener;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code mcpx serve [-c FILE] [--stdio | --http HOST:PORT]}: run the gateway until the host leaves or
 * a signal. Its command-line model is built in code, unlike the other commands': picocli building
 * it from annotations (a proxy class per annotation type, a method handle per field) took 30-50 ms
 * of the main thread at every gateway's launch.
 */
final class ServeCommand implements Callable<Integer> {

    static final String NAME = "serve";

    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    private final CommandSpec spec = CommandSpec.wrapWithoutInspection(this);

    private ServeCommand() {
        spec.name(NAME);
        spec.usageMessage().description("Run the gateway: every configured server as one MCP server, over stdio (default) or HTTP.");
        Main.addHelpOptions(spec);
        spec.addOption(ConfigOption.option());
        spec.addArgGroup(ArgGroupSpec.builder().exclusive(true).multiplicity("0..1")
                .addArg(OptionSpec.builder("--stdio").type(boolean.class)
                        .description("Serve one host on stdin/stdout (the default).").build())
                .addArg(OptionSpec.builder("--http").paramLabel("HOST:PORT").type(String.class).arity("0..1").fallbackValue("")
                        .description("Serve hosts at http://HOST:PORT/mcp (both protocol eras) and /status. "
                                + "Without HOST:PORT: mcpx.http from the config, else 127.0.0.1:8080.").build())
                .build());
        HttpAccessOptions.addTo(spec);
        spec.addOption(OptionSpec.builder("--profile").paramLabel("NAME").type(String.class)
                .description("With --stdio: serve the host profile NAME of mcpx.profiles (HTTP hosts use /mcp/NAME).").build());
        spec.addOption(OptionSpec.builder("--metrics").paramLabel("HOST:PORT").type(String.class)
                .description("Also serve Prometheus metrics at http://HOST:PORT/metrics (port 0: any free port); "
                        + "for --stdio, whose gateway has no HTTP front. --http serves /metrics itself.").build());
    }

    /** A new {@code serve} command line, to add to {@code mcpx}'s. */
    static CommandLine commandLine() {
        return new CommandLine(new ServeCommand().spec);
    }

    @Override
    public Integer call() throws Exception {
        ParseResult parsed = spec.commandLine().getParseResult();
        String httpOption = parsed.matchedOptionValue("--http", null);
        String profile = parsed.matchedOptionValue("--profile", null);
        String metrics = parsed.matchedOptionValue("--metrics", null);
        HttpAccessOptions access = HttpAccessOptions.of(parsed);
        Logging.setRoot(System.getenv().getOrDefault("MCPX_LOG", "INFO"));
        GatewayConfig loaded = ConfigOption.load(parsed.matchedOptionValue(ConfigOption.NAME, null));
        if (loaded.telemetry().jsonLogs()) {
            Logging.json();
        }
        InetSocketAddress address = httpAddress(httpOption, loaded);
        InetSocketAddress metricsAddress = metrics == null ? null : HostPort.parse(metrics).orElseThrow(() ->
                new UsageException("--metrics must be HOST:PORT (e.g. 127.0.0.1:9464), not \"" + metrics + "\""));
        HttpSecurity security = address == null ? HttpSecurity.NONE : secure(address, access, loaded);
        if (profile != null && address != null) {
            throw new UsageException("--profile is for --stdio; over HTTP a host chooses its profile with the path "
                    + "/mcp/" + profile + " or a token bound to it");
        }
        if (profile != null && loaded.profiles().find(profile).isEmpty()) {
            throw new UsageException("--profile " + profile + ": no such profile in mcpx.profiles of "
                    + loaded.source().map(Path::toString).orElse("the config") + " (configured: "
                    + (loaded.profiles().named().isEmpty() ? "none" : String.join(", ",
                    new java.util.TreeSet<>(loaded.profiles().named().keySet()))) + ")");
        }
        Optional<URI> redis = loaded.cluster().redis(System.getenv());
        if (redis.isPresent() && address == null) {
            LOG.warn("mcpx.cluster is for serve --http: a stdio gateway serves its one host alone");
        }
        // stdout belongs to MCP: anything that prints by accident goes to stderr instead
        OutputStream mcpOut = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        // the replica's name (a host name look-up) tells HTTP gateways apart; a stdio gateway serves
        // one host alone, and its tokens stay in the user's file
        String replica = address == null ? null : replicaName();
        UpstreamTokens tokens = address == null ? UpstreamTokens.userFile()
                : UpstreamTokens.of(loaded, System.getenv(), replica);
        Gateway.Settings settings = Gateway.Settings.defaults(McpxVersion.current());
        // the HTTP front starts before the upstreams do, so their start-up does not delay its first answer
        Gateway gateway = Gateway.create(loaded, settings.withClients(ClientFactory.standard(McpxVersion.current(), tokens.store())),
                System.getenv());
        Runtime.getRuntime().addShutdownHook(new Thread(tokens::close, "mcpx-tokens-shutdown"));
        Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "mcpx-shutdown"));
        if (metricsAddress != null) {
            MetricsListener listener = MetricsListener.start(gateway.telemetry(), metricsAddress);
            Runtime.getRuntime().addShutdownHook(new Thread(listener::close, "mcpx-metrics-shutdown"));
            System.err.println("mcpx: metrics on " + listener.uri());
        }
        if (address == null) {
            gateway.startUpstreams();
            LOG.info("serving on stdio with {} upstreams", loaded.upstreams().size());
            new StdioFront(gateway.hostRequests().forProfile(profile), gateway.listChanges(), gateway.frontLimits(), System.in, mcpOut).run();
            gateway.close();
            return Main.OK;
        }
        RedisReplication cluster;
        HttpFront http;
        try {
            cluster = redis.map(uri -> joinCluster(uri, replica)).orElse(null);
            http = HttpFront.start(gateway, address, security, HttpFront.DEFAULT_KEEP_ALIVE,
                    cluster == null ? Replication.alone() : cluster.replication());
        } catch (RuntimeException e) {
            gateway.close();
            throw e;
        }
        gateway.startUpstreams();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            http.close();
            if (cluster != null) {
                cluster.close();
            }
        }, "mcpx-http-shutdown"));
        if (cluster != null) {
            System.err.println("mcpx: replica " + replica + " of the cluster on " + redis.get().getScheme() + "://"
                    + redis.get().getHost() + ":" + redis.get().getPort());
        }
        if (tokens.redis().isPresent()) {
            System.err.println("mcpx: OAuth tokens of upstreams in " + tokens.where());
        }
        LOG.info("serving on {} (status at /status) with {} upstreams{}", http.mcpUri(), loaded.upstreams().size(),
                (security.tokens().isEmpty() ? "" : ", bearer tokens: " + security.tokens().stream()
                        .map(t -> t.name() + (t.scope() == FrontToken.Scope.MONITOR ? " (monitoring only)" : ""))
                        .collect(Collectors.joining(", ")))
                        + security.auth().map(auth -> ", OAuth access tokens from " + auth.issuer()).orElse(""));
        System.err.println("mcpx: listening on " + http.mcpUri());
        new CountDownLatch(1).await();
        return Main.OK;
    }

    /** The host name (a pod's name in Kubernetes) and the process id: unique among replicas, and says where to look. */
    private static String replicaName() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                host = "mcpx";
            }
        }
        return host + "-" + ProcessHandle.current().pid();
    }

    private static RedisReplication joinCluster(URI redis, String replica) {
        try {
            return RedisReplication.connect(redis, replica, HttpFront.IDLE_LIMIT);
        } catch (SessionStoreException e) {
            throw new UsageException("mcpx.cluster.redis " + redis.getScheme() + "://" + redis.getHost() + ":"
                    + redis.getPort() + " does not answer: " + e.getMessage());
        }
    }

    /** Refuses (exit 2) to expose {@code /mcp} beyond loopback with nothing asked of hosts; warns about what it allows. */
    private static HttpSecurity secure(InetSocketAddress address, HttpAccessOptions access, GatewayConfig loaded) {
        HttpSecurity security = access.resolve(loaded, System.getenv());
        String where = address.getHostString() + ":" + address.getPort();
        if (security.refuses(address)) {
            throw new UsageException("--http " + where + " can be reached from other machines, and no token is set: "
                    + "anyone who reaches it could run every configured server's tools. Set a token: "
                    + "--token-file FILE (its first line), or " + HttpAccessOptions.TOKEN_VARIABLE + "=..., or "
                    + "\"mcpx\": {\"token\": \"${" + HttpAccessOptions.TOKEN_VARIABLE + "}\"} in "
                    + loaded.source().map(Path::toString).orElse("the config file")
                    + "; hosts then send 'Authorization: Bearer TOKEN'. Or bind 127.0.0.1, or pass --allow-unauthenticated "
                    + "if something in front of mcpx authenticates. Or let an OAuth authorization server issue hosts' "
                    + "tokens (\"mcpx\": {\"auth\": {\"issuer\": ..., \"resource\": ...}}).");
        }
        if (security.auth().isPresent() && security.auth().get().resource().isEmpty() && !HttpSecurity.loopback(address)) {
            throw new UsageException("--http " + where + " can be reached from other machines, and mcpx.auth has no "
                    + "\"resource\": set it to the URL hosts reach /mcp at (e.g. \"https://mcp.example.com/mcp\"), the "
                    + "audience their tokens must carry");
        }
        if (HttpSecurity.loopback(address)) {
            return security;
        }
        if (!security.authenticates()) {
            LOG.warn("serving {} to other machines WITHOUT authentication (--allow-unauthenticated): anyone who reaches "
                    + "it can run every configured server's tools", where);
        }
        if (security.tls().isEmpty()) {
            LOG.warn("serving {} to other machines over plain HTTP: tokens and tool traffic travel unencrypted "
                    + "(use --tls-cert/--tls-key, or a TLS proxy in front)", where);
        }
        return security;
    }

    /** Null: serve stdio ({@code --http} not given; {@code --stdio} and {@code --http} exclude each other). */
    private static InetSocketAddress httpAddress(String http, GatewayConfig loaded) {
        if (http == null) {
            return null;
        }
        if (!http.isEmpty()) {
            return HostPort.parse(http).orElseThrow(() ->
                    new UsageException("--http must be HOST:PORT (e.g. 127.0.0.1:8080), not \"" + http + "\""));
        }
        return loaded.http().orElse(new InetSocketAddress("127.0.0.1", 8080));
    }
}

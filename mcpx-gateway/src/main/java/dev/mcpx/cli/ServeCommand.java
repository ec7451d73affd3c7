package dev.mcpx.cli;

import dev.mcpx.client.McpxVersion;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.HostPort;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.stdio.StdioFront;
import dev.mcpx.gateway.Gateway;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mcpx serve [-c FILE] [--stdio | --http HOST:PORT]}: run the gateway until the host leaves or a signal. */
@Command(name = "serve", description = "Run the gateway: every configured server as one MCP server, over stdio (default) or HTTP.")
final class ServeCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    @Mixin
    ConfigOption config;

    @ArgGroup(exclusive = true)
    Front front;

    static final class Front {
        @Option(names = "--stdio", description = "Serve one host on stdin/stdout (the default).")
        boolean stdio;

        @Option(names = "--http", paramLabel = "HOST:PORT", arity = "0..1", fallbackValue = "",
                description = "Serve hosts at http://HOST:PORT/mcp (both protocol eras) and /status. "
                        + "Without HOST:PORT: mcpx.http from the config, else 127.0.0.1:8080.")
        String http;
    }

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "Require 'Authorization: Bearer TOKEN' on HTTP (default: mcpx.token from the config, else none).")
    String token;

    @Override
    public Integer call() throws Exception {
        Logging.setRoot(System.getenv().getOrDefault("MCPX_LOG", "INFO"));
        GatewayConfig loaded = config.load();
        InetSocketAddress address = httpAddress(loaded);
        // stdout belongs to MCP: anything that prints by accident goes to stderr instead
        PrintStream mcpOut = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        System.setOut(System.err);
        Gateway gateway = Gateway.start(loaded, Gateway.Settings.defaults(McpxVersion.current()), System.getenv());
        Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "mcpx-shutdown"));
        if (address == null) {
            LOG.info("serving on stdio with {} upstreams", loaded.upstreams().size());
            new StdioFront(gateway.hostRequests(), gateway.listChanges(), gateway.frontLimits(), System.in, mcpOut).run();
            gateway.close();
            return Main.OK;
        }
        String bearer = token != null ? token : loaded.token().orElse(null);
        HttpFront http = HttpFront.start(gateway, address, bearer, HttpFront.DEFAULT_KEEP_ALIVE);
        Runtime.getRuntime().addShutdownHook(new Thread(http::close, "mcpx-http-shutdown"));
        LOG.info("serving on {} (status at /status) with {} upstreams{}", http.mcpUri(), loaded.upstreams().size(),
                bearer == null ? "" : ", bearer token required");
        System.err.println("mcpx: listening on " + http.mcpUri());
        new CountDownLatch(1).await();
        return Main.OK;
    }

    private InetSocketAddress httpAddress(GatewayConfig loaded) {
        if (front == null || front.stdio) {
            return null;
        }
        if (!front.http.isEmpty()) {
            return HostPort.parse(front.http).orElseThrow(() ->
                    new UsageException("--http must be HOST:PORT (e.g. 127.0.0.1:8080), not \"" + front.http + "\""));
        }
        return loaded.http().orElse(new InetSocketAddress("127.0.0.1", 8080));
    }
}

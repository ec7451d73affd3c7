package dev.mcpx.cli;

import dev.mcpx.client.McpClient;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.login.LoopbackLogin;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mcpx login [-c FILE] SERVER}: the OAuth authorization of one upstream, its tokens kept
 * in the user's token store for every mcpx process that serves it.
 */
@Command(name = "login", description = "Log in to an OAuth-protected upstream: opens the authorization URL with $BROWSER "
        + "(else the platform's opener), prints it too, waits for the redirect and stores the tokens.")
final class LoginCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Parameters(index = "0", paramLabel = "SERVER")
    String server;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "300",
            description = "How long to wait for the browser to come back. Default: ${DEFAULT-VALUE}")
    long timeoutSeconds;

    @Override
    public Integer call() {
        Logging.quietUnlessAsked();
        GatewayConfig loaded = config.load();
        UpstreamConfig upstream = oauthUpstream(ConfigOption.upstream(loaded, server));
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        try (UpstreamTokens tokens = UpstreamTokens.of(loaded, System.getenv(), "login")) {
            // a login is a new authorization, whatever tokens there were
            upstream.oauthClient(null, tokens.store()).logout();
            try (LoopbackLogin login = new LoopbackLogin(upstream.name(), timeout, System.getenv(), System.err);
                 McpClient client = upstream.clientBuilder(login, tokens.store())
                         .requestTimeout(timeout.plus(upstream.requestTimeout())).build().connect()) {
                System.err.println("mcpx: logged in to " + upstream.name() + " (" + client.server().name() + "); tokens in "
                        + tokens.where());
                return Main.OK;
            }
        }
    }

    static UpstreamConfig oauthUpstream(UpstreamConfig upstream) {
        if (upstream.oauth() == null) {
            throw new UsageException("\"" + upstream.name() + "\" does not use OAuth: it is a command server, or has its"
                    + " own Authorization header, or \"oauth\": false");
        }
        return upstream;
    }
}

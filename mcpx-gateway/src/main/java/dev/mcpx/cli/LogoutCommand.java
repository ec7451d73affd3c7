package dev.mcpx.cli;

import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code mcpx logout [-c FILE] SERVER}: forgets the upstream's tokens. */
@Command(name = "logout", description = "Forget the OAuth tokens of an upstream.")
final class LogoutCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Parameters(index = "0", paramLabel = "SERVER")
    String server;

    @Override
    public Integer call() {
        Logging.quietUnlessAsked();
        GatewayConfig loaded = config.load();
        UpstreamConfig upstream = LoginCommand.oauthUpstream(ConfigOption.upstream(loaded, server));
        try (UpstreamTokens tokens = UpstreamTokens.of(loaded, System.getenv(), "logout")) {
            upstream.oauthClient(null, tokens.store()).logout();
            System.err.println("mcpx: forgot the tokens of " + upstream.name() + " (" + tokens.where() + ")");
        }
        return Main.OK;
    }
}

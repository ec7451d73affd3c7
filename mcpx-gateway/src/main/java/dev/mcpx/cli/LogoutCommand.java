package dev.mcpx.cli;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.login.TokenFile;
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
        UpstreamConfig upstream = LoginCommand.oauthUpstream(ConfigOption.upstream(config.load(), server));
        upstream.oauthClient(null).logout();
        System.err.println("mcpx: forgot the tokens of " + upstream.name() + " (" + TokenFile.shared().file() + ")");
        return Main.OK;
    }
}

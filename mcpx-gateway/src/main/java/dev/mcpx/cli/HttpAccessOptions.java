package dev.mcpx.cli;

import dev.mcpx.config.FrontToken;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.TlsFiles;
import dev.mcpx.front.http.HttpSecurity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code serve --http}'s security options. A kind of token given here (for {@code /mcp}, or for
 * monitoring) replaces that kind from the config; without any token for {@code /mcp},
 * {@code $MCPX_TOKEN} is used.
 */
record HttpAccessOptions(Path tokenFile, String token, Path monitorTokenFile, boolean allowUnauthenticated,
                         Path tlsCert, Path tlsKey) {

    private static final Logger LOG = LoggerFactory.getLogger(HttpAccessOptions.class);

    static final String TOKEN_VARIABLE = "MCPX_TOKEN";

    /** Adds the options to {@code serve}'s model. */
    static void addTo(CommandSpec command) {
        command.addOption(OptionSpec.builder("--token-file").paramLabel("FILE").type(Path.class)
                .description("Require 'Authorization: Bearer TOKEN' on HTTP, TOKEN being the file's first line "
                        + "(default: mcpx.token / mcpx.tokens from the config, else $MCPX_TOKEN, else none).").build());
        command.addOption(OptionSpec.builder("--token").paramLabel("TOKEN").type(String.class)
                .description("Like --token-file, but the token shows in the process list: prefer --token-file or $MCPX_TOKEN.")
                .build());
        command.addOption(OptionSpec.builder("--monitor-token-file").paramLabel("FILE").type(Path.class)
                .description("A read-only token (first line of FILE) for /status only.").build());
        command.addOption(OptionSpec.builder("--allow-unauthenticated").type(boolean.class)
                .description("Serve an address other machines can reach without any token (something in front of mcpx "
                        + "must authenticate).").build());
        command.addOption(OptionSpec.builder("--tls-cert").paramLabel("FILE").type(Path.class)
                .description("Serve HTTPS with this PEM certificate chain (with --tls-key; default: mcpx.tls).").build());
        command.addOption(OptionSpec.builder("--tls-key").paramLabel("FILE").type(Path.class)
                .description("The PEM private key of --tls-cert (PKCS#8, or PKCS#1 RSA; unencrypted).").build());
    }

    /** The options as given on {@code serve}'s command line. */
    static HttpAccessOptions of(ParseResult parsed) {
        return new HttpAccessOptions(parsed.matchedOptionValue("--token-file", null), parsed.matchedOptionValue("--token", null),
                parsed.matchedOptionValue("--monitor-token-file", null), parsed.hasMatchedOption("--allow-unauthenticated"),
                parsed.matchedOptionValue("--tls-cert", null), parsed.matchedOptionValue("--tls-key", null));
    }

    /** Without the token's value, which a record would print. */
    @Override
    public String toString() {
        return "HttpAccessOptions[tokenFile=" + tokenFile + ", token=" + (token == null ? "none" : "given") + ", monitorTokenFile="
                + monitorTokenFile + ", allowUnauthenticated=" + allowUnauthenticated + ", tlsCert=" + tlsCert + ", tlsKey=" + tlsKey + "]";
    }

    HttpSecurity resolve(GatewayConfig config, Map<String, String> environment) {
        List<FrontToken> all = new ArrayList<>();
        if (tokenFile != null && token != null) {
            throw new UsageException("give --token-file or --token, not both");
        }
        if (tokenFile != null) {
            all.add(FrontToken.fromFile("token-file", tokenFile, FrontToken.Scope.ALL));
        } else if (token != null) {
            if (token.isBlank()) {
                throw new UsageException("--token must not be empty");
            }
            LOG.warn("--token puts the token in the process list (ps, /proc): use --token-file FILE or ${} instead",
                    TOKEN_VARIABLE);
            all.add(new FrontToken("token", token, FrontToken.Scope.ALL));
        } else {
            config.tokens().stream().filter(t -> t.scope() == FrontToken.Scope.ALL).forEach(all::add);
        }
        String fromEnvironment = environment.get(TOKEN_VARIABLE);
        if (all.isEmpty() && fromEnvironment != null && !fromEnvironment.isBlank()) {
            all.add(new FrontToken(TOKEN_VARIABLE, fromEnvironment.strip(), FrontToken.Scope.ALL));
        }
        if (monitorTokenFile != null) {
            all.add(FrontToken.fromFile("monitor-token-file", monitorTokenFile, FrontToken.Scope.MONITOR));
        } else {
            config.tokens().stream().filter(t -> t.scope() == FrontToken.Scope.MONITOR).forEach(all::add);
        }
        return new HttpSecurity(all, tls(config), allowUnauthenticated, config.auth());
    }

    private Optional<TlsFiles> tls(GatewayConfig config) {
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new UsageException("--tls-cert and --tls-key go together (a PEM certificate chain and its private key)");
        }
        return tlsCert != null ? Optional.of(new TlsFiles(tlsCert, tlsKey)) : config.tls();
    }
}

package dev.mcpx.front.http;

import dev.mcpx.config.FrontAuth;
import dev.mcpx.config.FrontToken;
import dev.mcpx.config.TlsFiles;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Who may use the HTTP front and how it is reached: the bearer tokens it accepts, OAuth access
 * tokens from an authorization server (neither: no authentication), TLS from PEM files, and
 * whether the operator accepts serving beyond this machine without a token.
 */
public record HttpSecurity(List<FrontToken> tokens, Optional<TlsFiles> tls, boolean allowUnauthenticated,
                           Optional<FrontAuth> auth) {

    /** No token, no TLS: what a loopback-only front needs. */
    public static final HttpSecurity NONE = new HttpSecurity(List.of(), Optional.empty(), false);

    public HttpSecurity {
        tokens = List.copyOf(tokens);
    }

    /** Static tokens only. */
    public HttpSecurity(List<FrontToken> tokens, Optional<TlsFiles> tls, boolean allowUnauthenticated) {
        this(tokens, tls, allowUnauthenticated, Optional.empty());
    }

    /** One token of scope {@code all}, or none for null. */
    public static HttpSecurity token(String token) {
        return token == null ? NONE
                : new HttpSecurity(List.of(new FrontToken("token", token, FrontToken.Scope.ALL)), Optional.empty(), false);
    }

    /** True when {@code /mcp} demands a token: a static one or an OAuth access token. */
    public boolean authenticates() {
        return auth.isPresent() || tokens.stream().anyMatch(token -> token.scope() == FrontToken.Scope.ALL);
    }

    /**
     * True when serving {@code address} exposes {@code /mcp} to other machines with nothing
     * asked of them: no token for {@code /mcp} and no explicit opt-out.
     */
    public boolean refuses(InetSocketAddress address) {
        return !authenticates() && !allowUnauthenticated && !loopback(address);
    }

    /** True when every address the host name resolves to is a loopback one (127.0.0.0/8, ::1). */
    public static boolean loopback(InetSocketAddress address) {
        try {
            InetAddress[] all = InetAddress.getAllByName(address.getHostString());
            return all.length > 0 && Arrays.stream(all).allMatch(InetAddress::isLoopbackAddress);
        } catch (UnknownHostException e) {
            return false;
        }
    }
}

package dev.mcpx.config;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The whole configuration: the upstreams in file order and the gateway's own options.
 *
 * @param source    the file it came from; empty for the built-in default
 * @param upstreams every entry, enabled or not
 * @param token     bearer token the HTTP front demands, if any
 * @param http      address the HTTP front binds when {@code serve --http} gives none
 * @param limits    the operator's limits ({@code mcpx.limits})
 */
public record GatewayConfig(Optional<Path> source, List<UpstreamConfig> upstreams,
                            Optional<String> token, Optional<InetSocketAddress> http, Limits limits) {

    public GatewayConfig {
        upstreams = List.copyOf(upstreams);
    }

    /** A config with the default limits. */
    public GatewayConfig(Optional<Path> source, List<UpstreamConfig> upstreams,
                         Optional<String> token, Optional<InetSocketAddress> http) {
        this(source, upstreams, token, http, Limits.DEFAULTS);
    }

    public Optional<UpstreamConfig> upstream(String name) {
        return upstreams.stream().filter(u -> u.name().equals(name)).findFirst();
    }

    public List<UpstreamConfig> enabled() {
        return upstreams.stream().filter(UpstreamConfig::enabled).toList();
    }

    public boolean builtIn() {
        return source.isEmpty();
    }

    /** The token is a secret: only whether there is one is shown. */
    @Override
    public String toString() {
        return "GatewayConfig[source=" + source + ", upstreams=" + upstreams + ", token="
                + (token.isPresent() ? "(set)" : "(none)") + ", http=" + http + ", limits=" + limits + "]";
    }
}

package dev.mcpx.config;

import dev.mcpx.catalogue.Profiles;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The whole configuration: the upstreams in file order and the gateway's own options.
 *
 * @param source    the file it came from; empty for the built-in default
 * @param upstreams every entry, enabled or not
 * @param tokens    bearer tokens the HTTP front accepts ({@code mcpx.token}, {@code mcpx.tokens}); none: no authentication
 * @param http      address the HTTP front binds when {@code serve --http} gives none
 * @param limits    the operator's limits ({@code mcpx.limits})
 * @param tls       the HTTP front's certificate and key ({@code mcpx.tls}), if it serves TLS
 * @param profiles  what hosts see: {@code mcpx.profiles} and {@code mcpx.search}
 * @param telemetry metrics, the audit log and the log format ({@code mcpx.metrics}, {@code mcpx.audit}, {@code mcpx.logFormat})
 * @param auth      the HTTP front as an OAuth protected resource ({@code mcpx.auth}), if it is one
 * @param cluster   the Redis shared with other replicas ({@code mcpx.cluster}), if any
 */
public record GatewayConfig(Optional<Path> source, List<UpstreamConfig> upstreams, List<FrontToken> tokens,
                            Optional<InetSocketAddress> http, Limits limits, Optional<TlsFiles> tls, Profiles profiles,
                            TelemetryOptions telemetry, Optional<FrontAuth> auth,
                            ClusterOptions cluster) {

    public GatewayConfig {
        upstreams = List.copyOf(upstreams);
        tokens = List.copyOf(tokens);
    }

    /** A config of one process whose HTTP front takes no OAuth tokens. */
    public GatewayConfig(Optional<Path> source, List<UpstreamConfig> upstreams, List<FrontToken> tokens,
                         Optional<InetSocketAddress> http, Limits limits, Optional<TlsFiles> tls, Profiles profiles,
                         TelemetryOptions telemetry) {
        this(source, upstreams, tokens, http, limits, tls, profiles, telemetry, Optional.empty(), ClusterOptions.NONE);
    }

    /** A config of one process. */
    public GatewayConfig(Optional<Path> source, List<UpstreamConfig> upstreams, List<FrontToken> tokens,
                         Optional<InetSocketAddress> http, Limits limits, Optional<TlsFiles> tls, Profiles profiles,
                         TelemetryOptions telemetry, Optional<FrontAuth> auth) {
        this(source, upstreams, tokens, http, limits, tls, profiles, telemetry, auth, ClusterOptions.NONE);
    }

    /** A config with no front options (no tokens, no TLS, the default limits). */
    public GatewayConfig(Optional<Path> source, List<UpstreamConfig> upstreams) {
        this(source, upstreams, List.of(), Optional.empty(), Limits.DEFAULTS, Optional.empty(), Profiles.NONE,
                TelemetryOptions.DEFAULTS);
    }

    /** A config without profiles or search mode, with the default telemetry. */
    public GatewayConfig(Optional<Path> source, List<UpstreamConfig> upstreams, List<FrontToken> tokens,
                         Optional<InetSocketAddress> http, Limits limits, Optional<TlsFiles> tls) {
        this(source, upstreams, tokens, http, limits, tls, Profiles.NONE, TelemetryOptions.DEFAULTS);
    }

    /** A config with profiles, with the default telemetry. */
    public GatewayConfig(Optional<Path> source, List<UpstreamConfig> upstreams, List<FrontToken> tokens,
                         Optional<InetSocketAddress> http, Limits limits, Optional<TlsFiles> tls, Profiles profiles) {
        this(source, upstreams, tokens, http, limits, tls, profiles, TelemetryOptions.DEFAULTS);
    }

    /** A config with telemetry options, without profiles. */
    public GatewayConfig(Optional<Path> source, List<UpstreamConfig> upstreams, List<FrontToken> tokens,
                         Optional<InetSocketAddress> http, Limits limits, Optional<TlsFiles> tls, TelemetryOptions telemetry) {
        this(source, upstreams, tokens, http, limits, tls, Profiles.NONE, telemetry);
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

    /** Tokens are secrets: only their names are shown. */
    @Override
    public String toString() {
        return "GatewayConfig[source=" + source + ", upstreams=" + upstreams + ", tokens="
                + tokens.stream().map(FrontToken::name).toList() + ", http=" + http + ", limits=" + limits
                + ", tls=" + tls + ", profiles=" + profiles.named().keySet() + ", telemetry=" + telemetry + ", auth=" + auth
                + ", cluster=" + cluster.redis().map(uri -> uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort()) + "]";
    }
}

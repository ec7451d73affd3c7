package dev.mcpx.config;

import dev.mcpx.auth.AuthorizationStep;
import dev.mcpx.auth.OAuthClient;
import dev.mcpx.auth.OAuthSettings;
import dev.mcpx.auth.TokenStore;
import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.Reissue;
import dev.mcpx.login.TokenFile;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;

/**
 * One {@code mcpServers} entry after validation and {@code ${VAR}} expansion.
 *
 * @param name           the entry's key in {@code mcpServers}
 * @param endpoint       how to reach it
 * @param prefix         what tool and prompt names get in front of them ({@code prefix__name});
 *                       empty means names pass through unchanged
 * @param reissue        per original tool name, the operator's re-issue override
 * @param requestTimeout how long one request may take
 * @param startTimeout   how long connecting and the handshake may take
 * @param enabled        false: listed in the config but not started
 * @param limits         what its client reads at most ({@code mcpx.limits})
 * @param filter         which of its tools, prompts and resources hosts see and may use
 * @param era            the era the operator pinned ({@code "era"}), or null: detected
 * @param oauth          how mcpx authorizes itself at an OAuth-protected HTTP upstream ({@code "oauth"}),
 *                       or null: never
 */
public record UpstreamConfig(String name, UpstreamEndpoint endpoint, String prefix,
                             Map<String, Reissue> reissue, Duration requestTimeout,
                             Duration startTimeout, boolean enabled, Limits.MessageLimits limits,
                             CatalogueFilter filter, Era era, OAuthSettings oauth) {

    public static final Duration DEFAULT_REQUEST_TIMEOUT = Limits.DEFAULTS.requestTimeout();
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

    public UpstreamConfig {
        reissue = Map.copyOf(reissue);
    }

    /** An upstream without OAuth. */
    public UpstreamConfig(String name, UpstreamEndpoint endpoint, String prefix, Map<String, Reissue> reissue,
                          Duration requestTimeout, Duration startTimeout, boolean enabled, Limits.MessageLimits limits,
                          CatalogueFilter filter, Era era) {
        this(name, endpoint, prefix, reissue, requestTimeout, startTimeout, enabled, limits, filter, era, null);
    }

    /** An upstream whose era is detected. */
    public UpstreamConfig(String name, UpstreamEndpoint endpoint, String prefix, Map<String, Reissue> reissue,
                          Duration requestTimeout, Duration startTimeout, boolean enabled, Limits.MessageLimits limits,
                          CatalogueFilter filter) {
        this(name, endpoint, prefix, reissue, requestTimeout, startTimeout, enabled, limits, filter, null);
    }

    /** An upstream whose whole catalogue hosts see. */
    public UpstreamConfig(String name, UpstreamEndpoint endpoint, String prefix, Map<String, Reissue> reissue,
                          Duration requestTimeout, Duration startTimeout, boolean enabled, Limits.MessageLimits limits) {
        this(name, endpoint, prefix, reissue, requestTimeout, startTimeout, enabled, limits, CatalogueFilter.NONE);
    }

    /** An upstream with the default message limits. */
    public UpstreamConfig(String name, UpstreamEndpoint endpoint, String prefix, Map<String, Reissue> reissue,
                          Duration requestTimeout, Duration startTimeout, boolean enabled) {
        this(name, endpoint, prefix, reissue, requestTimeout, startTimeout, enabled, Limits.MessageLimits.DEFAULTS);
    }

    /** The upstream with only a name and an endpoint, everything else defaulted. */
    public static UpstreamConfig of(String name, UpstreamEndpoint endpoint) {
        return new UpstreamConfig(name, endpoint, Prefixes.defaultFor(name), Map.of(),
                DEFAULT_REQUEST_TIMEOUT, DEFAULT_START_TIMEOUT, true);
    }

    /** This entry with {@code next} as its filter. */
    public UpstreamConfig withFilter(CatalogueFilter next) {
        return new UpstreamConfig(name, endpoint, prefix, reissue, requestTimeout, startTimeout, enabled, limits, next, era,
                oauth);
    }

    /**
     * A client for this upstream with its name, timeouts, limits and re-issue overrides applied;
     * an OAuth upstream's tokens come from the user's token store and are never asked for.
     */
    public McpClient.Builder clientBuilder() {
        return clientBuilder(null);
    }

    /** The same; an OAuth upstream asks the user through {@code login} when it needs a new authorization. */
    public McpClient.Builder clientBuilder(AuthorizationStep login) {
        return clientBuilder(login, TokenFile.shared());
    }

    /** The same, an OAuth upstream's tokens in {@code tokens} (a cluster's, shared by its replicas). */
    public McpClient.Builder clientBuilder(AuthorizationStep login, TokenStore tokens) {
        UpstreamEndpoint authorized = oauth != null && endpoint instanceof UpstreamEndpoint.Http http
                ? http.withAuthorization(oauthClient(login, tokens)) : endpoint;
        McpClient.Builder builder = McpClient.builder(authorized).name(name).requestTimeout(requestTimeout).reissue(reissue)
                .maxMessageChars(limits.maxMessageBytes()).maxSseEventBytes(limits.maxSseEventBytes());
        if (era != null) {
            // the newest version of the era; a legacy server may still choose an older one at initialize
            builder.protocolVersion(era == Era.LEGACY ? ProtocolVersion.LATEST_LEGACY : ProtocolVersion.LATEST_MODERN);
        }
        return builder;
    }

    /** The OAuth client of this upstream (only for an {@link #oauth} one), its tokens in the user's token store. */
    public OAuthClient oauthClient(AuthorizationStep login) {
        return oauthClient(login, TokenFile.shared());
    }

    /** The OAuth client of this upstream, its tokens in {@code tokens}. */
    public OAuthClient oauthClient(AuthorizationStep login, TokenStore tokens) {
        return OAuthClient.builder(((UpstreamEndpoint.Http) endpoint).url()).name(name).settings(oauth)
                .store(tokens).authorizationStep(login)
                .loginHint(oauth.grant().unattended() ? null : "run `mcpx login " + name + "`").build();
    }

    /** "stdio", "http" or "sse": the transport family, as {@code /status} shows it. */
    public String transport() {
        return switch (endpoint) {
            case UpstreamEndpoint.Stdio stdio -> "stdio";
            case UpstreamEndpoint.Http http -> http.kind() == UpstreamEndpoint.HttpKind.SSE ? "sse" : "http";
        };
    }
}

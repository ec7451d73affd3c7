package dev.mcpx.cli;

import dev.mcpx.auth.OAuthSettings;
import dev.mcpx.auth.TokenStore;
import dev.mcpx.cluster.RedisTokenStore;
import dev.mcpx.cluster.SecretKeys;
import dev.mcpx.config.ClusterOptions;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.SessionStoreException;
import dev.mcpx.login.TokenFile;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the OAuth tokens of a config's upstreams are kept: in its cluster's Redis, sealed with
 * the cluster's secret key, when it has a cluster and a key; else in the user's token file. A
 * cluster with upstreams configured for OAuth and no key is refused: tokens are never stored in
 * Redis in the clear, and a login would not serve the other replicas.
 */
record UpstreamTokens(TokenStore store, String where, Optional<RedisTokenStore> redis) implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UpstreamTokens.class);

    static UpstreamTokens of(GatewayConfig config, Map<String, String> environment, String replica) {
        Optional<URI> redis = config.cluster().redis(environment);
        List<UpstreamConfig> oauth = config.upstreams().stream().filter(upstream -> upstream.oauth() != null).toList();
        if (redis.isEmpty() || oauth.isEmpty()) {
            return userFile();
        }
        List<String> keys = config.cluster().secretKeys(environment);
        String at = redis.get().getScheme() + "://" + redis.get().getHost() + ":" + redis.get().getPort();
        if (keys.isEmpty()) {
            // every HTTP upstream may turn out to want OAuth; one configured for it surely does
            List<String> configured = oauth.stream().filter(upstream -> !upstream.oauth().equals(OAuthSettings.defaults()))
                    .map(UpstreamConfig::name).toList();
            if (!configured.isEmpty()) {
                throw new UsageException("mcpx.cluster: the OAuth tokens of " + String.join(", ", configured) + " are shared by "
                        + "the replicas through " + at + ", encrypted, and no key is set to encrypt them: set "
                        + "\"mcpx\": {\"cluster\": {\"secretKey\": \"${" + ClusterOptions.SECRET_KEY_VARIABLE + "}\"}} (or "
                        + "\"secretKeyFile\": PATH) with the same key on every replica; make one with `openssl rand -base64 32`");
            }
            LOG.info("mcpx.cluster has no secretKey: an HTTP upstream that asks for OAuth keeps its tokens in each "
                    + "replica's own token file, not in Redis");
            return userFile();
        }
        try {
            RedisTokenStore store = RedisTokenStore.connect(redis.get(), keys, replica);
            return new UpstreamTokens(store, at + " (encrypted with key " + store.sealingKeyId() + ")", Optional.of(store));
        } catch (SessionStoreException e) {
            throw new UsageException("mcpx.cluster.redis " + at + " does not answer: " + e.getMessage());
        } catch (SecretKeys.Unopenable e) {
            throw new UsageException("mcpx.cluster.secretKey does not open the secrets the cluster keeps in " + at + ": "
                    + e.getMessage());
        }
    }

    /** The user's token file, whatever the config says. */
    static UpstreamTokens userFile() {
        TokenFile file = TokenFile.shared();
        return new UpstreamTokens(file, file.file().toString(), Optional.empty());
    }

    @Override
    public void close() {
        redis.ifPresent(RedisTokenStore::close);
    }
}

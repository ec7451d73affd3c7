package dev.mcpx.config;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code mcpx.cluster}: with {@code redis}, {@code serve --http} runs as one of many equal
 * replicas sharing legacy sessions and list changes through that Redis; without, mcpx is one process.
 * {@code secretKeys} encrypt what the replicas share that is secret (upstreams' OAuth tokens):
 * AES keys, base64, the first one sealing, every one opening (older ones while a key rotates).
 */
public record ClusterOptions(Optional<URI> redis, List<String> secretKeys) {

    public static final ClusterOptions NONE = new ClusterOptions(Optional.empty());

    /** The environment variable naming the Redis when the config does not. */
    public static final String REDIS_VARIABLE = "MCPX_REDIS_URL";
    /** The environment variable holding the secret keys when the config does not. */
    public static final String SECRET_KEY_VARIABLE = "MCPX_SECRET_KEY";

    public ClusterOptions {
        secretKeys = List.copyOf(secretKeys);
    }

    public ClusterOptions(Optional<URI> redis) {
        this(redis, List.of());
    }

    /** The config's Redis, else {@value #REDIS_VARIABLE}'s; a malformed variable is a {@link ConfigException}. */
    public Optional<URI> redis(Map<String, String> environment) {
        if (redis.isPresent()) {
            return redis;
        }
        String variable = environment.get(REDIS_VARIABLE);
        return variable == null || variable.isBlank() ? Optional.empty()
                : Optional.of(ClusterParser.redisUri(variable, REDIS_VARIABLE, null));
    }

    /** The config's keys, else {@value #SECRET_KEY_VARIABLE}'s; empty when neither has one; a malformed key is a {@link ConfigException}. */
    public List<String> secretKeys(Map<String, String> environment) {
        if (!secretKeys.isEmpty()) {
            return secretKeys;
        }
        String variable = environment.get(SECRET_KEY_VARIABLE);
        return variable == null || variable.isBlank() ? List.of() : ClusterParser.keys(variable, SECRET_KEY_VARIABLE, null);
    }

    /** Keys are secrets: only how many there are is shown. */
    @Override
    public String toString() {
        return "ClusterOptions[redis=" + redis.map(uri -> uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort())
                + ", secretKeys=" + secretKeys.size() + "]";
    }
}

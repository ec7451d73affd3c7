package dev.mcpx.config;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * {@code mcpx.cluster}: with {@code redis}, {@code serve --http} runs as one of many equal
 * replicas sharing legacy sessions and list changes through that Redis; without, mcpx is one process.
 */
public record ClusterOptions(Optional<URI> redis) {

    public static final ClusterOptions NONE = new ClusterOptions(Optional.empty());

    /** The environment variable naming the Redis when the config does not. */
    public static final String REDIS_VARIABLE = "MCPX_REDIS_URL";

    /** The config's Redis, else {@value #REDIS_VARIABLE}'s; a malformed variable is a {@link ConfigException}. */
    public Optional<URI> redis(Map<String, String> environment) {
        if (redis.isPresent()) {
            return redis;
        }
        String variable = environment.get(REDIS_VARIABLE);
        return variable == null || variable.isBlank() ? Optional.empty()
                : Optional.of(ClusterParser.redisUri(variable, REDIS_VARIABLE, null));
    }
}

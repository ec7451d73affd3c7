package dev.mcpx.cluster;

import java.net.URI;
import java.time.Duration;
import java.util.function.Supplier;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.JedisURIHelper;

/** Connections to the cluster's Redis, as every part of the cluster opens them. */
final class RedisConnections {

    private static final int TIMEOUT_MILLIS = 5_000;

    private RedisConnections() {
    }

    /**
     * Connections to {@code uri} ({@code redis://[user:password@]host:port[/db]} or
     * {@code rediss://}) named {@code clientName} in Redis's client list, at most
     * {@code maxConnections}; one not free within 5 s fails the call that wanted it.
     */
    static RedisClient open(URI uri, String clientName, int maxConnections) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(maxConnections);
        pool.setMaxIdle(maxConnections);
        pool.setMaxWait(Duration.ofMillis(TIMEOUT_MILLIS));
        return RedisClient.builder().hostAndPort(JedisURIHelper.getHostAndPort(uri))
                .clientConfig(config(uri, clientName)).poolConfig(pool).build();
    }

    /**
     * Connections of their own for subscribing, each closed when its subscription ends: a
     * connection that was subscribed never goes back to a pool, where the next command could read
     * a subscription's leftover reply as its own.
     */
    static Supplier<Jedis> forSubscribing(URI uri, String clientName) {
        JedisClientConfig config = config(uri, clientName);
        HostAndPort address = JedisURIHelper.getHostAndPort(uri);
        return () -> new Jedis(address, config);
    }

    private static JedisClientConfig config(URI uri, String clientName) {
        if (!JedisURIHelper.isValid(uri)) {
            throw new IllegalArgumentException("mcpx.cluster.redis must be redis://HOST:PORT or rediss://HOST:PORT, not " + uri);
        }
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(TIMEOUT_MILLIS).socketTimeoutMillis(TIMEOUT_MILLIS)
                .clientName(clientName.replaceAll("[^A-Za-z0-9_.-]", "_"))
                .user(JedisURIHelper.getUser(uri)).password(JedisURIHelper.getPassword(uri))
                .ssl(JedisURIHelper.isRedisSSLScheme(uri));
        if (JedisURIHelper.hasDbIndex(uri)) {
            config.database(JedisURIHelper.getDBIndex(uri));
        }
        return config.build();
    }
}

package dev.mcpx.cluster;

import dev.mcpx.auth.TokenStore;
import dev.mcpx.front.http.SessionStoreException;
import dev.mcpx.protocol.Json;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.SetParams;
import tools.jackson.databind.node.ObjectNode;

/**
 * The upstreams' OAuth tokens and registered clients of a cluster, in its Redis, so a login or a
 * refresh on one replica serves all of them: each entry a string under {@code mcpx:secret:<sha-256
 * of its name>} (the name holds the upstream's URL), sealed with the cluster's {@link SecretKeys}.
 * A renewal holds {@code mcpx:renewal:<sha-256>} (SET NX with an expiry), so of the replicas a
 * refused token reaches, one renews it and the others wait, then take the renewed one.
 */
public final class RedisTokenStore implements TokenStore, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisTokenStore.class);
    private static final String SECRET_PREFIX = "mcpx:secret:";
    private static final String RENEWAL_PREFIX = "mcpx:renewal:";
    static final String CHECK = "mcpx:secret-check";
    /** Longer than a token request may take; a replica that died holding it holds it no longer than this. */
    static final Duration RENEWAL_EXPIRY = Duration.ofSeconds(30);
    private static final Duration RENEWAL_POLL = Duration.ofMillis(50);
    private static final String RELEASE = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
            return 0""";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final RedisClient redis;
    private final SecretKeys keys;

    private RedisTokenStore(RedisClient redis, SecretKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /**
     * Connects to {@code uri} with {@code secretKeys} (base64 AES keys, the sealing one first);
     * fails at once ({@link SessionStoreException}) when Redis does not answer a PING.
     */
    public static RedisTokenStore connect(URI uri, List<String> secretKeys, String replica) {
        // tokens are read once per upstream connection and on a refusal: a few connections suffice
        RedisClient redis = RedisConnections.open(uri, "mcpx-secrets-" + replica, 8);
        RedisTokenStore store = new RedisTokenStore(redis, SecretKeys.of(secretKeys));
        try {
            store.checkKeys();
        } catch (RuntimeException e) {
            redis.close();
            throw e;
        }
        return store;
    }

    /**
     * A replica whose keys cannot open what the cluster stored is refused at start
     * ({@link SecretKeys.Unopenable}), not at its first refused token: the first replica stores a
     * value sealed with its key under {@value #CHECK}, and every later one must open it.
     */
    private void checkKeys() {
        String sealed = keys.seal(CHECK, CHECK);
        if (call("SET", () -> redis.set(CHECK, sealed, SetParams.setParams().nx())) == null) {
            String stored = call("GET", () -> redis.get(CHECK));
            if (stored != null) {
                keys.open(CHECK, stored);
                if (!keys.sealedWithSealingKey(stored)) {
                    // a key rotates: once every replica seals with the new key, the old one may go
                    call("SET", () -> redis.set(CHECK, sealed));
                }
            }
        }
    }

    /** The id of the key that seals new values (shown at start, never the key). */
    public String sealingKeyId() {
        return keys.sealingId();
    }

    /** Fails with a message naming the problem when the stored value cannot be opened (a wrong key). */
    @Override
    public Optional<ObjectNode> read(String key) {
        String name = secretName(key);
        String sealed = call("GET", () -> redis.get(name));
        if (sealed == null) {
            return Optional.empty();
        }
        String plain = keys.open(name, sealed);
        if (!keys.sealedWithSealingKey(sealed)) {
            // sealed with a key that is rotating out: sealed again with the new one, so the old one may go
            call("SET", () -> redis.set(name, keys.seal(name, plain), SetParams.setParams().xx()));
        }
        return Optional.of(Json.parse(plain) instanceof ObjectNode entry ? entry : Json.object());
    }

    @Override
    public void write(String key, ObjectNode value) {
        String name = secretName(key);
        call("SET", () -> redis.set(name, keys.seal(name, Json.write(value))));
    }

    @Override
    public void remove(String key) {
        call("DEL", () -> redis.del(secretName(key)));
    }

    /**
     * Waits while another replica renews {@code key} (at most {@link #RENEWAL_EXPIRY}, after which
     * its hold lapses). If Redis cannot be asked, this replica renews without waiting: a second
     * refresh is better than none.
     */
    @Override
    public Lease renewal(String key) {
        String name = RENEWAL_PREFIX + digest(key);
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        String holder = Base64.getEncoder().encodeToString(random);
        SetParams params = SetParams.setParams().nx().px(RENEWAL_EXPIRY.toMillis());
        long deadline = System.nanoTime() + RENEWAL_EXPIRY.plusSeconds(5).toNanos();
        try {
            while (redis.set(name, holder, params) == null) {
                if (System.nanoTime() > deadline) {
                    LOG.warn("cluster: another replica holds the renewal of {} too long; renewing without it", name);
                    return () -> { };
                }
                Thread.sleep(RENEWAL_POLL);
            }
        } catch (JedisException e) {
            LOG.warn("cluster: cannot take the renewal of {} ({}); renewing without it", name, e.getMessage());
            return () -> { };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return () -> { };
        }
        return () -> {
            try {
                redis.eval(RELEASE, List.of(name), List.of(holder));
            } catch (JedisException e) {
                LOG.debug("cluster: releasing {}: {} (it expires by itself)", name, e.getMessage());
            }
        };
    }

    /** The Redis key of a store entry: its name hashed, as the name holds the upstream's URL. */
    static String secretName(String key) {
        return SECRET_PREFIX + digest(key);
    }

    private static String digest(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private <T> T call(String what, Supplier<T> command) {
        try {
            return command.get();
        } catch (JedisException e) {
            throw new SessionStoreException("Redis did not answer " + what + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        redis.close();
    }
}

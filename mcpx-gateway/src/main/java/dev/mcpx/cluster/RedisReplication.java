package dev.mcpx.cluster;

import dev.mcpx.front.ListChanges;
import dev.mcpx.front.http.ClusterMembership;
import dev.mcpx.front.http.HostMessageRelay;
import dev.mcpx.front.http.HostSessionStore;
import dev.mcpx.front.http.ListChangeRelay;
import dev.mcpx.front.http.Replication;
import dev.mcpx.front.http.SessionStoreException;
import dev.mcpx.front.http.SharedSession;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.router.LogLevel;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One replica's link to the cluster's Redis: legacy sessions as hashes under
 * {@code mcpx:session:<sha-256 of the id>} with the idle limit as their expiry, pushed back on
 * every use; session ends, list changes and hosts' messages for calls running elsewhere on the
 * {@code mcpx:events} channel, which each replica reads on a connection of its own; the live
 * replicas in {@code mcpx:replicas}.
 */
public final class RedisReplication implements HostSessionStore, ListChangeRelay, HostMessageRelay, ClusterMembership {

    private static final Logger LOG = LoggerFactory.getLogger(RedisReplication.class);
    static final String EVENTS = "mcpx:events";
    private static final String KEY_PREFIX = "mcpx:session:";
    /** The replicas, scored by the Redis time (seconds) of their last heartbeat: no replica's clock matters. */
    static final String REPLICAS = "mcpx:replicas";
    private static final Duration HEARTBEAT = Duration.ofSeconds(5);
    /** A replica silent for three heartbeats is no longer a member. */
    private static final long MEMBER_SECONDS = 15;
    private static final String BEAT = """
            local now = tonumber(redis.call('TIME')[1])
            redis.call('ZADD', KEYS[1], now, ARGV[1])
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
            return now""";
    private static final String MEMBERS = """
            local now = tonumber(redis.call('TIME')[1])
            return redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[1]), '+inf')""";
    /** The hash's fields: version, profile, capabilities, log level, initialized. */
    private static final String VERSION = "v";
    private static final String PROFILE = "p";
    private static final String CAPABILITIES = "c";
    private static final String LOG_LEVEL = "l";
    private static final String INITIALIZED = "i";
    /** One field per resource subscription: {@code s:} and its URI. */
    private static final String SUBSCRIPTION = "s:";

    /** Reads the hash and pushes its expiry back in one round trip. */
    private static final String TOUCH = """
            local fields = redis.call('HGETALL', KEYS[1])
            if #fields > 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
            return fields""";
    /** Writes the fields with the expiry; {@code ARGV[2]} 1 only where the session exists (never brings an ended one back). */
    private static final String WRITE = """
            if ARGV[2] == '1' and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
            redis.call('HSET', KEYS[1], unpack(ARGV, 3))
            redis.call('EXPIRE', KEYS[1], ARGV[1])
            return 1""";

    private final RedisClient redis;
    private final String replica;
    private final long expirySeconds;
    private final List<Consumer<String>> ended = new CopyOnWriteArrayList<>();
    private final List<Consumer<ListChanges.Notice>> listsChanged = new CopyOnWriteArrayList<>();
    private final List<BiConsumer<String, String>> hostMessages = new CopyOnWriteArrayList<>();
    private final Events events = new Events();
    private final Thread subscriber;
    private final Thread heartbeat;
    private final CompletableFuture<Void> subscribed = new CompletableFuture<>();
    private final RedisHeldCalls heldCalls;
    private volatile boolean closed;
    /** Ends the heartbeat's wait: an interrupt could land in its Redis call and return the pooled connection with an unread reply. */
    private final CountDownLatch stopBeating = new CountDownLatch(1);

    private RedisReplication(RedisClient redis, Supplier<Jedis> subscribing, String replica, Duration expiry) {
        this.redis = redis;
        this.replica = replica;
        this.expirySeconds = Math.max(1, expiry.toSeconds());
        this.heldCalls = new RedisHeldCalls(redis, subscribing);
        // one long-lived blocking reader: a platform thread of its own
        this.subscriber = Thread.ofPlatform().daemon().name("mcpx-cluster-events")
                .unstarted(new ChannelReader(subscribing, events, EVENTS, "the events channel", () -> closed));
        this.heartbeat = Thread.ofVirtual().name("mcpx-cluster-heartbeat").unstarted(this::beat);
    }

    /**
     * Connects to {@code uri} ({@code redis://[user:password@]host:port[/db]} or {@code rediss://})
     * as replica {@code replica}; sessions unused on every replica for {@code expiry} end. Fails
     * at once ({@link SessionStoreException}) when Redis does not answer a PING.
     */
    public static RedisReplication connect(URI uri, String replica, Duration expiry) {
        // every host request may need a connection at once; one that cannot get one within 5 s is answered 503
        RedisClient redis = RedisConnections.open(uri, "mcpx-" + replica, 64);
        RedisReplication replication = new RedisReplication(redis,
                RedisConnections.forSubscribing(uri, "mcpx-" + replica + "-events"), replica, expiry);
        replication.call("PING", redis::ping);
        replication.announce();
        replication.subscriber.start();
        try {
            // events sent before this replica listens would be lost to it
            replication.subscribed.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            replication.close();
            throw new SessionStoreException("Redis did not confirm the subscription to " + EVENTS + " within 10 s", e);
        }
        replication.heartbeat.start();
        return replication;
    }

    /**
     * The front's view: this store for sessions and this relay for list changes, streams kept in
     * {@link RedisStreams}, held calls' retries forwarded by {@link RedisHeldCalls}.
     */
    public Replication replication() {
        return new Replication(this, this, this, Optional.of(this), new RedisStreams(redis, replica, this::members,
                Duration.ofSeconds(expirySeconds)), heldCalls);
    }

    @Override
    public String replica() {
        return replica;
    }

    @Override
    public List<String> members() {
        Object names = call("ZRANGEBYSCORE", () -> redis.eval(MEMBERS, List.of(REPLICAS), List.of(Long.toString(MEMBER_SECONDS))));
        return names instanceof List<?> list ? list.stream().map(RedisReplication::text).sorted().toList() : List.of();
    }

    private void announce() {
        call("ZADD", () -> redis.eval(BEAT, List.of(REPLICAS), List.of(replica, Long.toString(MEMBER_SECONDS))));
    }

    /** Says every {@link #HEARTBEAT} that this replica is alive; a missed beat is only logged. */
    private void beat() {
        while (!closed) {
            try {
                if (stopBeating.await(HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
                announce();
            } catch (InterruptedException e) {
                return;
            } catch (SessionStoreException e) {
                LOG.warn("cluster: heartbeat: {}", e.getMessage());
            }
        }
    }

    @Override
    public void create(SharedSession session) {
        write(session);
    }

    @Override
    public Optional<SharedSession> touch(String id) {
        Object fields = call("HGETALL", () -> redis.eval(TOUCH, List.of(key(id)), List.of(Long.toString(expirySeconds))));
        if (!(fields instanceof List<?> flat) || flat.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> hash = new java.util.HashMap<>();
        Set<String> subscriptions = new HashSet<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            String field = text(flat.get(i));
            if (field.startsWith(SUBSCRIPTION)) {
                subscriptions.add(field.substring(SUBSCRIPTION.length()));
            } else {
                hash.put(field, text(flat.get(i + 1)));
            }
        }
        Optional<ProtocolVersion> version = ProtocolVersion.fromWire(hash.get(VERSION));
        if (version.isEmpty()) {
            LOG.warn("cluster: session record {} has no version mcpx knows ({}): treated as ended", key(id), hash.get(VERSION));
            return Optional.empty();
        }
        String capabilities = hash.get(CAPABILITIES);
        return Optional.of(new SharedSession(id, version.get(), hash.get(PROFILE),
                capabilities == null ? null : Json.parse(capabilities) instanceof ObjectNode object ? object : null,
                LogLevel.parse(hash.get(LOG_LEVEL)), "1".equals(hash.get(INITIALIZED)), subscriptions));
    }

    @Override
    public void initialized(String id) {
        write(id, true, List.of(INITIALIZED, "1"));
    }

    @Override
    public void logLevel(String id, LogLevel level) {
        write(id, true, List.of(LOG_LEVEL, level.wire()));
    }

    @Override
    public void subscription(String id, String uri, boolean subscribed) {
        if (subscribed) {
            write(id, true, List.of(SUBSCRIPTION + uri, "1"));
        } else {
            call("HDEL", () -> redis.hdel(key(id), SUBSCRIPTION + uri));
        }
    }

    private void write(SharedSession session) {
        List<String> args = new ArrayList<>(List.of(VERSION, session.version().wire(), INITIALIZED, session.initialized() ? "1" : "0"));
        if (session.profile() != null) {
            args.addAll(List.of(PROFILE, session.profile()));
        }
        if (session.capabilities() != null) {
            args.addAll(List.of(CAPABILITIES, session.capabilities().toString()));
        }
        if (session.logLevel() != null) {
            args.addAll(List.of(LOG_LEVEL, session.logLevel().wire()));
        }
        write(session.id(), false, args);
    }

    /** Sets {@code fields} (name, value, ...) and the expiry; {@code onlyIfThere}: never brings back a session that ended. */
    private void write(String id, boolean onlyIfThere, List<String> fields) {
        List<String> args = new ArrayList<>(List.of(Long.toString(expirySeconds), onlyIfThere ? "1" : "0"));
        args.addAll(fields);
        call("HSET", () -> redis.eval(WRITE, List.of(key(id)), args));
    }

    @Override
    public boolean remove(String id) {
        boolean removed = call("DEL", () -> redis.del(key(id))) > 0;
        if (removed) {
            publish(Json.object().put("ended", id));
        }
        return removed;
    }

    @Override
    public void forgotIdle(String id) {
        // other replicas may still serve it: Redis's expiry decides when it ends
    }

    @Override
    public void onRemovedElsewhere(Consumer<String> ended) {
        this.ended.add(ended);
    }

    @Override
    public void publish(ListChanges.Notice notice) {
        ObjectNode lists = Json.object();
        notice.methodsByProfile().forEach((profile, methods) -> methods.forEach(lists.putArray(profile)::add));
        try {
            publish(Json.object().set("lists", lists));
        } catch (SessionStoreException e) {
            LOG.warn("cluster: could not tell the other replicas that {} changed: {}", notice.methodsByProfile(),
                    e.getMessage());
        }
    }

    @Override
    public void onChangedElsewhere(Consumer<ListChanges.Notice> changed) {
        listsChanged.add(changed);
    }

    @Override
    public void forward(String sessionId, String message) {
        try {
            publish(Json.object().put("session", sessionId).put("message", message));
        } catch (SessionStoreException e) {
            LOG.warn("cluster: could not pass a host's message to the other replicas: {}", e.getMessage());
        }
    }

    @Override
    public void onForwarded(BiConsumer<String, String> deliver) {
        hostMessages.add(deliver);
    }

    private void publish(ObjectNode event) {
        event.put("from", replica);
        call("PUBLISH", () -> redis.publish(EVENTS, event.toString()));
    }

    private final class Events extends JedisPubSub {
        @Override
        public void onSubscribe(String channel, int subscribedChannels) {
            subscribed.complete(null);
        }

        @Override
        public void onMessage(String channel, String message) {
            JsonNode event;
            try {
                event = Json.parse(message);
            } catch (RuntimeException e) {
                LOG.warn("cluster: ignored an event that is not JSON: {}", message);
                return;
            }
            if (replica.equals(Json.text(event, "from"))) {
                return;
            }
            String id = Json.text(event, "ended");
            if (id != null) {
                ended.forEach(consumer -> consumer.accept(id));
            }
            String session = Json.text(event, "session");
            String hostMessage = Json.text(event, "message");
            if (session != null && hostMessage != null) {
                hostMessages.forEach(deliver -> deliver.accept(session, hostMessage));
            }
            if (event.get("lists") instanceof ObjectNode lists) {
                Map<String, Set<String>> byProfile = new HashMap<>();
                lists.properties().forEach(entry -> entry.getValue().forEach(method ->
                        byProfile.computeIfAbsent(entry.getKey(), profile -> new HashSet<>()).add(method.asString())));
                ListChanges.Notice notice = new ListChanges.Notice(byProfile);
                listsChanged.forEach(consumer -> consumer.accept(notice));
            }
        }
    }

    static <T> T call(String what, Supplier<T> command) {
        try {
            return command.get();
        } catch (JedisException e) {
            throw new SessionStoreException("Redis did not answer " + what + ": " + e.getMessage(), e);
        }
    }

    /** Keys hold a digest of the id: whoever reads Redis cannot take over a host's session. */
    static String key(String id) {
        return KEY_PREFIX + digest(id);
    }

    /** The SHA-256 of a session id, in hex: what names the session in Redis. */
    static String digest(String id) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    static String text(Object value) {
        return value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(value);
    }

    @Override
    public void close() {
        closed = true;
        try {
            if (events.isSubscribed()) {
                events.unsubscribe();
            }
        } catch (JedisException e) {
            LOG.debug("cluster: unsubscribing: {}", e.getMessage());
        }
        subscriber.interrupt();
        stopBeating.countDown();
        try {
            // a beat under way finishes its one call (bounded by the pool's socket timeout) before the connections close
            heartbeat.join(HEARTBEAT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        heldCalls.close();
        try {
            redis.zrem(REPLICAS, replica);
        } catch (JedisException e) {
            LOG.debug("cluster: leaving the members: {}", e.getMessage());
        }
        redis.close();
    }
}

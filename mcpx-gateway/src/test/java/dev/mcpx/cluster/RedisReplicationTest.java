package dev.mcpx.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.front.ListChanges;
import dev.mcpx.front.http.SessionStoreException;
import dev.mcpx.front.http.SharedSession;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.router.LogLevel;
import dev.mcpx.testkit.cluster.HaProxy;
import dev.mcpx.testkit.cluster.RedisServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;
import tools.jackson.databind.node.ObjectNode;

/** Two replicas' links to one real redis-server: what one stores, ends or changes, the other sees. */
class RedisReplicationTest {

    @TempDir
    static Path dir;
    private static RedisServer redis;
    private static RedisClient inspect;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServer.start(dir);
        inspect = RedisClient.create(redis.uri());
    }

    @AfterAll
    static void stopRedis() throws Exception {
        if (inspect != null) {
            inspect.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private static SharedSession session(String id) {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("roots").put("listChanged", true);
        return new SharedSession(id, ProtocolVersion.fromWire("2025-11-25").orElseThrow(), "team", capabilities, null, false, Set.of());
    }

    @Test
    void aSessionOneReplicaCreatedIsReadByAnotherWithWhatItsHostChangedOnEither() {
        try (RedisReplication a = RedisReplication.connect(redis.uri(), "a", Duration.ofHours(1));
             RedisReplication b = RedisReplication.connect(redis.uri(), "b", Duration.ofHours(1))) {
            a.create(session("s-read"));
            assertThat(b.touch("s-read")).contains(session("s-read"));

            a.logLevel("s-read", LogLevel.parse("debug"));
            b.initialized("s-read");
            a.subscription("s-read", "test://one", true);
            b.subscription("s-read", "test://two", true);
            a.subscription("s-read", "test://one", false);

            SharedSession seen = b.touch("s-read").orElseThrow();
            assertThat(seen.initialized()).isTrue();
            assertThat(seen.logLevel()).isEqualTo(LogLevel.parse("debug"));
            assertThat(seen.profile()).isEqualTo("team");
            assertThat(seen.subscriptions()).containsExactly("test://two");
            assertThat(seen.capabilities().path("roots").path("listChanged").asBoolean()).isTrue();
            assertThat(b.touch("never-created")).isEmpty();
        }
    }

    @Test
    void everyUsePushesTheExpiryBackAndAnUnusedSessionExpires() {
        try (RedisReplication a = RedisReplication.connect(redis.uri(), "a", Duration.ofHours(1));
             RedisReplication brief = RedisReplication.connect(redis.uri(), "brief", Duration.ofSeconds(1))) {
            a.create(session("s-ttl"));
            String key = RedisReplication.key("s-ttl");
            inspect.expire(key, 100);

            a.touch("s-ttl");

            assertThat(inspect.ttl(key)).isGreaterThan(3_000);

            brief.create(session("s-brief"));
            // watched without touching it: a touch would push the expiry back
            await().atMost(Duration.ofSeconds(30)).until(() -> !inspect.exists(RedisReplication.key("s-brief")));
            assertThat(brief.touch("s-brief")).isEmpty();
        }
    }

    @Test
    void removingEndsTheSessionForEveryReplicaAndTellsTheOthers() throws Exception {
        try (RedisReplication a = RedisReplication.connect(redis.uri(), "a", Duration.ofHours(1));
             RedisReplication b = RedisReplication.connect(redis.uri(), "b", Duration.ofHours(1))) {
            BlockingQueue<String> endedForA = new LinkedBlockingQueue<>();
            BlockingQueue<String> endedForB = new LinkedBlockingQueue<>();
            a.onRemovedElsewhere(endedForA::add);
            b.onRemovedElsewhere(endedForB::add);
            a.create(session("s-end"));

            assertThat(a.remove("s-end")).isTrue();

            assertThat(endedForB.poll(30, TimeUnit.SECONDS)).isEqualTo("s-end");
            assertThat(b.touch("s-end")).isEmpty();
            assertThat(b.remove("s-end")).isFalse();
            b.initialized("s-end");
            b.logLevel("s-end", LogLevel.parse("error"));
            assertThat(a.touch("s-end")).as("an update never brings an ended session back").isEmpty();
            assertThat(endedForA).as("a replica is not told of its own removals").isEmpty();
        }
    }

    @Test
    void listChangesReachTheOtherReplicasPerProfile() throws Exception {
        try (RedisReplication a = RedisReplication.connect(redis.uri(), "a", Duration.ofHours(1));
             RedisReplication b = RedisReplication.connect(redis.uri(), "b", Duration.ofHours(1))) {
            BlockingQueue<ListChanges.Notice> changedForA = new LinkedBlockingQueue<>();
            BlockingQueue<ListChanges.Notice> changedForB = new LinkedBlockingQueue<>();
            a.onChangedElsewhere(changedForA::add);
            b.onChangedElsewhere(changedForB::add);

            a.publish(new ListChanges.Notice(Map.of("", Set.of("notifications/tools/list_changed",
                    "notifications/prompts/list_changed"), "review", Set.of("notifications/tools/list_changed"))));

            ListChanges.Notice toB = changedForB.poll(30, TimeUnit.SECONDS);
            assertThat(toB).isNotNull();
            assertThat(toB.methods(null)).containsExactlyInAnyOrder("notifications/tools/list_changed",
                    "notifications/prompts/list_changed");
            assertThat(toB.methods("review")).containsExactly("notifications/tools/list_changed");
            assertThat(toB.methods("ops")).isEmpty();
            b.publish(new ListChanges.Notice(Map.of("ops", Set.of("notifications/resources/list_changed"))));
            ListChanges.Notice toA = changedForA.poll(30, TimeUnit.SECONDS);
            assertThat(toA).isNotNull();
            assertThat(toA.methods("ops")).containsExactly("notifications/resources/list_changed");
            assertThat(toA.methods(null)).isEmpty();
            assertThat(changedForA).isEmpty();
        }
    }

    @Test
    void aRedisThatDoesNotAnswerIsAClearErrorAtOnce() throws Exception {
        try (HaProxy nowhere = HaProxy.tcpToUnixSocket(dir, dir.resolve("no-redis-here.sock"))) {
            assertThatThrownBy(() -> RedisReplication.connect(java.net.URI.create("redis://127.0.0.1:" + nowhere.port()),
                    "lonely", Duration.ofHours(1)))
                    .isInstanceOf(SessionStoreException.class)
                    .hasMessageContaining("Redis did not answer PING");
        }
    }

    @Test
    void keysHoldADigestOfTheSessionIdNotTheId() {
        try (RedisReplication a = RedisReplication.connect(redis.uri(), "a", Duration.ofHours(1))) {
            a.create(session("secret-session-id"));
            assertThat(inspect.keys("mcpx:session:*")).noneMatch(key -> key.contains("secret-session-id"))
                    .contains(RedisReplication.key("secret-session-id"));
            assertThat(List.copyOf(inspect.hgetAll(RedisReplication.key("secret-session-id")).values()))
                    .noneMatch(value -> value.contains("secret-session-id"));
        }
    }
}

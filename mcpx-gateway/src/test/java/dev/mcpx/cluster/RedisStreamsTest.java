package dev.mcpx.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.front.http.SharedStreams;
import dev.mcpx.testkit.cluster.RedisServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/** Two replicas' shared streams on one real redis-server: what one writes, the other resumes and takes over. */
class RedisStreamsTest {

    @TempDir
    static Path dir;
    private static RedisServer redis;
    private static RedisClient client;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServer.start(dir);
        client = RedisClient.create(redis.uri());
    }

    @AfterAll
    static void stopRedis() throws Exception {
        if (client != null) {
            client.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private static RedisStreams replica(String name, List<String> members) {
        return new RedisStreams(client, name, () -> members, Duration.ofHours(1));
    }

    @Test
    void eachReplicaNamesItsStreamsApartAndAnotherReadsWhatOneWroteAfterTheHostsLastEvent() {
        RedisStreams a = replica("a", List.of("a", "b"));
        RedisStreams b = replica("b", List.of("a", "b"));
        assertThat(a.streamPrefix()).isNotEqualTo(b.streamPrefix()).endsWith(".");
        String stream = a.streamPrefix() + "1";
        a.started("session-1", stream, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\"}");
        a.append("session-1", stream, 1, "{\"progress\":1}");
        a.append("session-1", stream, 2, "{\"progress\":2}");

        SharedStreams.Kept kept = b.read("session-1", stream, 1, Duration.ZERO).orElseThrow();

        assertThat(kept.events()).containsExactly(new SharedStreams.Event(2, "{\"progress\":2}"));
        assertThat(kept.ended()).isFalse();
        assertThat(kept.evicted()).isFalse();
        assertThat(kept.running()).map(SharedStreams.Running::replica).contains("a");
        assertThat(b.read("session-2", stream, 1, Duration.ZERO)).as("another session's stream").isEmpty();

        a.answered("session-1", stream, 3, "{\"result\":{}}");
        SharedStreams.Kept answered = b.read("session-1", stream, 2, Duration.ZERO).orElseThrow();
        assertThat(answered.events()).containsExactly(new SharedStreams.Event(3, "{\"result\":{}}"));
        assertThat(answered.ended()).isTrue();
        assertThat(answered.running()).as("an answered call no longer runs").isEmpty();
        assertThat(b.claim("session-1", stream, "a")).as("an answered call is never taken over").isEmpty();
    }

    @Test
    void aReadThatWaitsGetsTheNextEventAsItIsWritten() throws Exception {
        RedisStreams a = replica("a", List.of("a", "b"));
        RedisStreams b = replica("b", List.of("a", "b"));
        String stream = a.streamPrefix() + "2";
        a.started("session-3", stream, "{}");
        CompletableFuture<Optional<SharedStreams.Kept>> waiting = CompletableFuture.supplyAsync(
                () -> b.read("session-3", stream, 0, Duration.ofSeconds(5)), task -> Thread.ofVirtual().start(task));
        org.awaitility.Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> !waiting.isDone());

        a.append("session-3", stream, 1, "{\"n\":1}");

        assertThat(waiting.get(30, TimeUnit.SECONDS).orElseThrow().events())
                .containsExactly(new SharedStreams.Event(1, "{\"n\":1}"));
    }

    @Test
    void aDeadReplicasCallIsTakenOverByOneReplicaOnlyAndRunAgainAtMostOnce() {
        RedisStreams dead = replica("dead", List.of("b", "c"));
        RedisStreams b = replica("b", List.of("b", "c"));
        RedisStreams c = replica("c", List.of("b", "c"));
        String stream = dead.streamPrefix() + "3";
        dead.started("session-4", stream, "{\"request\":1}");
        assertThat(b.alive("dead")).isFalse();
        assertThat(b.alive("c")).isTrue();

        Optional<SharedStreams.Claimed> first = b.claim("session-4", stream, "dead");
        Optional<SharedStreams.Claimed> second = c.claim("session-4", stream, "dead");

        assertThat(first).contains(new SharedStreams.Claimed("{\"request\":1}", false));
        assertThat(second).as("taken already").isEmpty();
        assertThat(c.read("session-4", stream, 0, Duration.ZERO).orElseThrow().running())
                .map(SharedStreams.Running::replica).contains("b");
        // b died too while running it: the next replica may only answer that it was lost
        assertThat(c.claim("session-4", stream, "b")).contains(new SharedStreams.Claimed("{\"request\":1}", true));
    }

    @Test
    void eventsPastTheBoundAreDroppedOldestFirstAndAResumeFromBeforeThemIsToldSo() {
        RedisStreams a = replica("a", List.of("a"));
        String stream = a.streamPrefix() + "4";
        for (int seq = 1; seq <= RedisStreams.MAX_EVENTS + 5; seq++) {
            a.append("session-5", stream, seq, "{}");
        }

        assertThat(a.read("session-5", stream, 2, Duration.ZERO).orElseThrow().evicted()).isTrue();
        SharedStreams.Kept recent = a.read("session-5", stream, 5, Duration.ZERO).orElseThrow();
        assertThat(recent.evicted()).isFalse();
        assertThat(recent.events()).hasSize(RedisStreams.MAX_EVENTS);
        assertThat(client.ttl("mcpx:stream:{" + RedisReplication.digest("session-5") + "}:" + stream))
                .as("expires with the session's idle limit").isPositive();
    }
}

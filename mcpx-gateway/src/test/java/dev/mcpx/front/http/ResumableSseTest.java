package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.gateway.HttpHost;
import dev.mcpx.protocol.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A legacy call's SSE stream as a host sees it over real loopback HTTP: priming event, ids,
 * {@code retry:}, and resuming with GET and {@code Last-Event-ID} after the host's connection
 * broke mid-call, within a bounded store.
 */
class ResumableSseTest extends LegacySseFixture {

    @Test
    void aLegacyCallLongerThanTheJsonWindowStreamsFromAPrimingEventWithRetry() throws Exception {
        HttpFront front = lingering(Duration.ofMillis(300));
        HttpHost host = session(front);
        try (SseSocket post = SseSocket.post(front.port(), host.sessionId(), slow(3, 400))) {
            assertThat(post.status).isEqualTo(200);
            assertThat(post.contentType()).startsWith("text/event-stream");
            SseSocket.Event priming = post.next();
            assertThat(priming.id()).matches("\\d+-0");
            assertThat(priming.data()).isEmpty();
            assertThat(priming.retry()).isEqualTo("1000");
            List<SseSocket.Event> rest = post.rest();
            assertThat(rest).hasSize(1);
            assertThat(rest.getFirst().id()).isEqualTo(streamOf(priming.id()) + "-1");
            JsonNode reply = Json.parse(rest.getFirst().data());
            assertThat(reply.path("id").asInt()).isEqualTo(3);
            assertThat(reply.path("result").path("content").path(0).path("text").asString()).isEqualTo("slept 400 ms");
        }
        await().atMost(AWAIT).until(() -> sse(front).path("keptEvents").asLong() == 0);
    }

    @Test
    void aQuickCallWithinTheJsonWindowIsJsonAndProgressMakesACallSse() throws Exception {
        HttpFront front = front(new SseSettings(Duration.ofSeconds(30), SseSettings.RETRY,
                SseSettings.MAX_EVENTS_PER_SESSION, SseSettings.MAX_BYTES_PER_SESSION, SseSettings.RESUME_GRACE,
                SseSettings.DELIVERED_LINGER));
        HttpHost host = session(front);
        try (SseSocket post = SseSocket.post(front.port(), host.sessionId(),
                call(4, "lh__echo", Json.object().put("text", "hi"), null))) {
            assertThat(post.contentType()).startsWith("application/json");
            assertThat(Json.parse(post.body()).path("result").path("content").path(0).path("text").asString())
                    .isEqualTo("hi");
        }
        try (SseSocket post = SseSocket.post(front.port(), host.sessionId(),
                call(5, "lh__progress", Json.object().put("steps", 2), "p5"))) {
            assertThat(post.contentType()).startsWith("text/event-stream");
            SseSocket.Event priming = post.next();
            assertThat(priming.isPriming()).isTrue();
            assertThat(priming.retry()).isEqualTo("1000");
            List<SseSocket.Event> rest = post.rest();
            assertThat(rest).extracting(SseSocket.Event::id).containsExactly(
                    streamOf(priming.id()) + "-1", streamOf(priming.id()) + "-2", streamOf(priming.id()) + "-3");
            assertThat(messages(rest).getLast().path("id").asInt()).isEqualTo(5);
        }
    }

    @Test
    void aHostThatDropsMidCallResumesAndGetsTheResponseExactlyOnce() throws Exception {
        HttpFront front = lingering(Duration.ofMillis(300));
        HttpHost host = session(front);
        int executed = upstream.executions("slow");
        SseSocket.Event priming = startAndDrop(front, host, slow(7, 1_500));

        try (SseSocket resumed = SseSocket.get(front.port(), host.sessionId(), priming.id())) {
            assertThat(resumed.status).isEqualTo(200);
            assertThat(resumed.contentType()).startsWith("text/event-stream");
            List<SseSocket.Event> events = resumed.rest();
            assertThat(messages(events)).hasSize(1);
            JsonNode reply = messages(events).getFirst();
            assertThat(reply.path("id").asInt()).isEqualTo(7);
            assertThat(reply.path("result").path("content").path(0).path("text").asString()).isEqualTo("slept 1500 ms");
            assertThat(events).filteredOn(event -> event.data() != null).extracting(SseSocket.Event::id)
                    .containsExactly(streamOf(priming.id()) + "-1");
        }
        assertThat(upstream.executions("slow")).isEqualTo(executed + 1);
        await().atMost(AWAIT).until(() -> sse(front).path("keptEvents").asLong() == 0);
        try (SseSocket again = SseSocket.get(front.port(), host.sessionId(), priming.id())) {
            assertThat(again.status).as("a delivered stream is dropped after its linger").isEqualTo(400);
        }
        JsonNode counters = sse(front);
        assertThat(counters.path("resumptions").asLong()).isEqualTo(1);
        assertThat(counters.path("refusedResumptions").asLong()).isEqualTo(1);
        assertThat(counters.path("droppedResults").asLong()).isZero();
    }

    @Test
    void whatTheHostMissedIsReplayedButNotWhatItAlreadyHad() throws Exception {
        HttpFront front = front();
        HttpHost host = session(front);
        int executed = upstream.executions("ask");
        String askId;
        String askEventId;
        try (SseSocket post = SseSocket.post(front.port(), host.sessionId(),
                call(8, "lh__ask", Json.object().put("kind", "elicitation"), null))) {
            assertThat(post.next().isPriming()).isTrue();
            SseSocket.Event ask = post.next();
            JsonNode asked = Json.parse(ask.data());
            assertThat(asked.path("method").asString()).isEqualTo("elicitation/create");
            askId = asked.path("id").asString();
            askEventId = ask.id();
        }
        // the host answers the question while its call's stream is down
        ObjectNode answer = Json.object().put("jsonrpc", "2.0").put("id", askId);
        answer.putObject("result").put("action", "accept").putObject("content").put("name", "Ada");
        assertThat(host.send(answer, null).status()).isEqualTo(202);

        try (SseSocket resumed = SseSocket.get(front.port(), host.sessionId(), askEventId)) {
            List<JsonNode> replayed = messages(resumed.rest());
            assertThat(replayed).hasSize(1);
            assertThat(replayed.getFirst().path("id").asInt()).isEqualTo(8);
            assertThat(replayed.getFirst().path("result").path("content").path(0).path("text").asString())
                    .contains("Ada");
        }
        assertThat(upstream.executions("ask")).isEqualTo(executed + 1);
    }

    @Test
    void aResumeReplaysOnlyItsOwnStreamAndRefusesAnotherSessionsIds() throws Exception {
        HttpFront front = front();
        HttpHost host = session(front);
        HttpHost other = session(front);
        SseSocket.Event first = startAndDrop(front, host, slow(11, 800));
        SseSocket.Event second = startAndDrop(front, host, slow(12, 800));
        SseSocket.Event foreign = startAndDrop(front, other, slow(13, 800));
        assertThat(streamOf(first.id())).isNotEqualTo(streamOf(second.id())).isNotEqualTo(streamOf(foreign.id()));

        try (SseSocket stolen = SseSocket.get(front.port(), host.sessionId(), foreign.id())) {
            assertThat(stolen.status).isEqualTo(400);
            assertThat(stolen.body()).contains("another session");
        }
        try (SseSocket garbage = SseSocket.get(front.port(), host.sessionId(), "not-an-id")) {
            assertThat(garbage.status).isEqualTo(400);
        }
        try (SseSocket resumed = SseSocket.get(front.port(), host.sessionId(), second.id())) {
            assertThat(messages(resumed.rest())).extracting(m -> m.path("id").asInt()).containsExactly(12);
        }
        try (SseSocket resumed = SseSocket.get(front.port(), host.sessionId(), first.id())) {
            assertThat(messages(resumed.rest())).extracting(m -> m.path("id").asInt()).containsExactly(11);
        }
        try (SseSocket resumed = SseSocket.get(front.port(), other.sessionId(), foreign.id())) {
            assertThat(messages(resumed.rest())).extracting(m -> m.path("id").asInt()).containsExactly(13);
        }
        assertThat(sse(front).path("refusedResumptions").asLong()).isEqualTo(2);
    }

    @Test
    void aFullStoreEvictsTheOldestEventsAndTheirResumeIsRefused() throws Exception {
        HttpFront front = front(new SseSettings(SseSettings.LEGACY_JSON_WINDOW, SseSettings.RETRY, 2,
                SseSettings.MAX_BYTES_PER_SESSION, SseSettings.RESUME_GRACE, SseSettings.DELIVERED_LINGER));
        HttpHost host = session(front);
        SseSocket.Event dropped = startAndDrop(front, host, slow(21, 1_500));
        await().atMost(AWAIT).until(() -> sse(front).path("keptEvents").asLong() == 1);

        try (SseSocket post = SseSocket.post(front.port(), host.sessionId(),
                call(22, "lh__progress", Json.object().put("steps", 3), "p22"))) {
            assertThat(messages(post.rest())).hasSize(4);
        }
        JsonNode counters = sse(front);
        assertThat(counters.path("evictedEvents").asLong()).isPositive();
        assertThat(counters.path("keptEvents").asLong()).isLessThanOrEqualTo(2);

        try (SseSocket resumed = SseSocket.get(front.port(), host.sessionId(), dropped.id())) {
            assertThat(resumed.status).isEqualTo(400);
            assertThat(resumed.body()).contains("dropped").contains("at most 2 events");
        }
    }

    @Test
    void anEventLargerThanTheByteBoundIsNotKeptAndItsResumeIsRefused() throws Exception {
        HttpFront front = front(new SseSettings(SseSettings.LEGACY_JSON_WINDOW, SseSettings.RETRY,
                SseSettings.MAX_EVENTS_PER_SESSION, 64, SseSettings.RESUME_GRACE, SseSettings.DELIVERED_LINGER));
        HttpHost host = session(front);
        SseSocket.Event priming = startAndDrop(front, host, slow(25, 1_500));
        await().atMost(AWAIT).until(() -> sse(front).path("evictedEvents").asLong() == 1);

        JsonNode counters = sse(front);
        assertThat(counters.path("keptEvents").asLong()).isZero();
        assertThat(counters.path("keptBytes").asLong()).isZero();
        try (SseSocket resumed = SseSocket.get(front.port(), host.sessionId(), priming.id())) {
            assertThat(resumed.status).isEqualTo(400);
            assertThat(resumed.body()).contains("64 bytes");
        }
    }

    @Test
    void aHostThatNeverComesBackLosesTheResultAfterTheGracePeriod() throws Exception {
        HttpFront front = front(new SseSettings(SseSettings.LEGACY_JSON_WINDOW, SseSettings.RETRY,
                SseSettings.MAX_EVENTS_PER_SESSION, SseSettings.MAX_BYTES_PER_SESSION, Duration.ofMillis(300),
                SseSettings.DELIVERED_LINGER));
        HttpHost host = session(front);
        // long enough that the gateway has noticed the host is gone when the answer comes
        SseSocket.Event priming = startAndDrop(front, host, slow(31, 1_500));

        await().atMost(AWAIT).untilAsserted(() -> {
            JsonNode counters = sse(front);
            assertThat(counters.path("droppedResults").asLong()).isEqualTo(1);
            assertThat(counters.path("keptEvents").asLong()).isZero();
            assertThat(counters.path("keptBytes").asLong()).isZero();
        });
        try (SseSocket late = SseSocket.get(front.port(), host.sessionId(), priming.id())) {
            assertThat(late.status).isEqualTo(400);
        }
    }

    @Test
    void deletingTheSessionDropsEverythingItKept() throws Exception {
        HttpFront front = front();
        HttpHost host = session(front);
        SseSocket.Event priming = startAndDrop(front, host, slow(41, 300));
        await().atMost(AWAIT).until(() -> sse(front).path("keptEvents").asLong() == 1);

        HttpResponse<String> deleted = host.raw(HttpRequest.newBuilder(front.mcpUri())
                .header("Mcp-Session-Id", host.sessionId()).DELETE().build());
        assertThat(deleted.statusCode()).isEqualTo(200);

        JsonNode counters = sse(front);
        assertThat(counters.path("keptEvents").asLong()).isZero();
        assertThat(counters.path("keptBytes").asLong()).isZero();
        try (SseSocket late = SseSocket.get(front.port(), host.sessionId(), priming.id())) {
            assertThat(late.status).isEqualTo(404);
        }
    }
}

package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A legacy session's GET listen stream: primed, resumable, and never carrying a call's response. */
class ListenStreamSseTest extends LegacySseFixture {

    @Test
    void theListenStreamIsPrimedAndWhatItMissedWhileAwayIsReplayed() throws Exception {
        HttpFront front = front();
        HttpHost host = session(front);
        SseSocket.Event priming;
        try (SseSocket listen = SseSocket.get(front.port(), host.sessionId(), null)) {
            assertThat(listen.contentType()).startsWith("text/event-stream");
            priming = listen.next();
            assertThat(priming.isPriming()).isTrue();
            assertThat(priming.retry()).isEqualTo("1000");
        }
        try {
            gateway.reload(TestGateways.config(upstreamNamed("legacy", "lh"), upstreamNamed("again", "lh2")));
            await().atMost(AWAIT).until(() -> sse(front).path("keptEvents").asLong() >= 1);

            try (SseSocket resumed = SseSocket.get(front.port(), host.sessionId(), priming.id())) {
                assertThat(resumed.status).isEqualTo(200);
                SseSocket.Event retry = resumed.next();
                assertThat(retry.retry()).isEqualTo("1000");
                SseSocket.Event missed = resumed.next();
                assertThat(missed.id()).isEqualTo(streamOf(priming.id()) + "-1");
                assertThat(Json.parse(missed.data()).path("method").asString()).endsWith("/list_changed");
            }
            assertThat(sse(front).path("replayedEvents").asLong()).isPositive();
        } finally {
            gateway.reload(TestGateways.config(upstreamNamed("legacy", "lh")));
        }
    }

    @Test
    void aCallsResponseGoesOnItsOwnStreamOnlyNeverOnTheListenStream() throws Exception {
        HttpFront front = front();
        HttpHost host = session(front);
        try (SseSocket listen = SseSocket.get(front.port(), host.sessionId(), null)) {
            assertThat(listen.next().isPriming()).isTrue();
            try (SseSocket post = SseSocket.post(front.port(), host.sessionId(), slow(51, 300))) {
                assertThat(messages(post.rest())).extracting(m -> m.path("id").asInt()).containsExactly(51);
            }
            try {
                gateway.reload(TestGateways.config(upstreamNamed("legacy", "lh"), upstreamNamed("again", "lh2")));
                List<JsonNode> heard = new ArrayList<>();
                while (heard.isEmpty() || !heard.getLast().path("method").asString("").endsWith("/list_changed")) {
                    SseSocket.Event event = listen.next();
                    if (event.data() != null && !event.data().isEmpty()) {
                        heard.add(Json.parse(event.data()));
                    }
                }
                assertThat(heard).as("the listen stream carries notifications, never the call's response")
                        .allSatisfy(message -> assertThat(message.has("method")).isTrue());
            } finally {
                gateway.reload(TestGateways.config(upstreamNamed("legacy", "lh")));
            }
        }
    }
}

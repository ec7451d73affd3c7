package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.SessionExpiredException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream.ResponseMode;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream.SessionLossAnswer;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Recovery Phase 1 as a user of {@link McpClient} sees it, against a legacy upstream that restarts. */
class SessionRecoveryTest {

    private final List<ClientEvent> events = new CopyOnWriteArrayList<>();
    private LegacyHttpUpstream upstream;
    private McpClient client;

    @BeforeEach
    void startUpstream() {
        upstream = LegacyHttpUpstream.started();
    }

    @AfterEach
    void stopAll() {
        if (client != null) {
            client.close();
        }
        upstream.close();
    }

    private McpClient connect() {
        UpstreamEndpoint.Http endpoint = new UpstreamEndpoint.Http(upstream.url(), Map.of(),
                UpstreamEndpoint.HttpKind.STREAMABLE);
        client = McpClient.builder(endpoint).name("legacy").protocolVersion(ProtocolVersion.V2025_11_25)
                .requestTimeout(Duration.ofSeconds(10)).events(events::add).build().connect();
        return client;
    }

    private JsonNode echo(String text) {
        return client.callTool("echo", Json.object().put("text", text), RequestOptions.defaults());
    }

    private static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asString();
    }

    @Test
    void twentyCallsAtTheMomentOfARestartAllSucceedThroughOneReinitialize() throws Exception {
        connect();
        assertThat(client.listTools()).isNotEmpty();
        upstream.restart();

        List<String> answers = new ArrayList<>();
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<JsonNode>> calls = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String text = "call " + i;
                calls.add(callers.submit(() -> echo(text)));
            }
            for (Future<JsonNode> call : calls) {
                answers.add(text(call.get(20, TimeUnit.SECONDS)));
            }
        }

        assertThat(answers).hasSize(20).doesNotHaveDuplicates().allMatch(a -> a.startsWith("call "));
        assertThat(upstream.initializeCount()).isEqualTo(2);
        assertThat(client.counters().snapshot().reinitializations()).isEqualTo(1);
        List<String> callIds = upstream.requestIdsSeen("tools/call");
        assertThat(callIds).doesNotHaveDuplicates();
        assertThat(upstream.executions("echo")).isEqualTo(20);
        Thread.sleep(1500);
        assertThat(upstream.initializeCount()).as("no later re-initialize, e.g. from the listen stream").isEqualTo(2);
    }

    @Test
    void aServerThatRejectsEverySessionCostsOneReinitializeAndOneRetryThenTheNextCallIsRefusedAtOnce() {
        connect();
        client.listTools();
        upstream.rejectEverySession(true);

        assertThatThrownBy(() -> echo("doomed")).isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("rejects its sessions right after initialize")
                .hasCauseInstanceOf(SessionExpiredException.class);
        assertThat(upstream.initializeCount()).isEqualTo(2);
        assertThat(upstream.requestIdsSeen("tools/call")).hasSize(2).doesNotHaveDuplicates();
        assertThat(client.counters().snapshot().reinitializations()).isEqualTo(1);

        assertThatThrownBy(() -> echo("refused")).isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("was not sent");
        assertThat(upstream.requestIdsSeen("tools/call")).as("the refused call never left").hasSize(2);
        assertThat(client.degradedReason()).hasValueSatisfying(reason -> assertThat(reason).contains("session affinity"));
    }

    @Test
    void aNotificationThat404sStartsNoReinitialize() throws InterruptedException {
        upstream.listenStream(false);
        connect();
        upstream.forgetSessions();

        assertThatThrownBy(() -> client.notify("notifications/roots/list_changed", null))
                .isInstanceOf(SessionExpiredException.class);
        Thread.sleep(300);
        assertThat(upstream.initializeCount()).isEqualTo(1);
        assertThat(client.counters().snapshot().reinitializations()).isZero();
    }

    @Test
    void anInitializeThat404sDoesNotLoop() throws InterruptedException {
        connect();
        upstream.refuseInitialize(true);
        upstream.forgetSessions();

        assertThatThrownBy(() -> echo("no session to be had"))
                .isInstanceOf(McpException.class)
                .isInstanceOfAny(HttpStatusException.class, SessionExpiredException.class);
        Thread.sleep(1500);
        assertThat(upstream.requestIdsSeen("initialize")).as("the first handshake and one re-initialize attempt")
                .hasSize(2);
        assertThat(upstream.requestIdsSeen("tools/call")).hasSize(1);
        assertThat(client.counters().snapshot().reinitializations()).isZero();
    }

    @Test
    void theReferenceServers400ForAForgottenSessionHealsToo() {
        upstream.sessionLossAnswer(SessionLossAnswer.BAD_REQUEST);
        connect();
        client.listTools();
        upstream.forgetSessions();

        assertThat(text(echo("healed"))).isEqualTo("healed");
        assertThat(upstream.initializeCount()).isEqualTo(2);
        assertThat(client.counters().snapshot().reinitializations()).isEqualTo(1);
        assertThat(events).contains(new ClientEvent.Reinitialized(1))
                .contains(new ClientEvent.ListChanged(CatalogueKind.TOOLS),
                        new ClientEvent.ListChanged(CatalogueKind.RESOURCES),
                        new ClientEvent.ListChanged(CatalogueKind.PROMPTS));
    }

    @Test
    void afterARestartLaterCallsUseTheNewSession() {
        connect();
        upstream.restart();
        echo("first after restart");
        String newSession = upstream.liveSessions().iterator().next();
        echo("second");
        echo("third");

        List<RecordedRequest> calls = upstream.requests().stream()
                .filter(r -> "tools/call".equals(r.rpcMethod())).toList();
        assertThat(calls.subList(1, calls.size())).extracting(RecordedRequest::sessionId).containsOnly(newSession);
        assertThat(upstream.initializeCount()).isEqualTo(2);
    }

    @Test
    void aCutResponseStreamResumesWithLastEventIdHonouringRetryAndRunsTheToolOnce() {
        upstream.responseMode(ResponseMode.SSE);
        connect();
        upstream.cutNextStream(300);

        JsonNode result = client.callTool("increment", Json.object(), RequestOptions.defaults());

        assertThat(text(result)).isEqualTo("1");
        assertThat(upstream.executions("increment")).isEqualTo(1);
        List<RecordedRequest> resumes = upstream.resumes();
        assertThat(resumes).hasSize(1);
        assertThat(resumes.getFirst().lastEventId()).isNotBlank();
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(resumes.getFirst().nanoTime() - upstream.cutTimes().getFirst());
        assertThat(waitedMillis).isGreaterThanOrEqualTo(280L);
        assertThat(upstream.initializeCount()).isEqualTo(1);
        assertThat(upstream.requestIdsSeen("tools/call")).hasSize(1);
    }

    @Test
    void aServerToClientRequestOnTheResponseStreamIsAnsweredThroughTheClient() throws ExecutionException {
        upstream.close();
        upstream = LegacyHttpUpstream.started();
        UpstreamEndpoint.Http endpoint = new UpstreamEndpoint.Http(upstream.url(), Map.of(),
                UpstreamEndpoint.HttpKind.STREAMABLE);
        client = McpClient.builder(endpoint).name("legacy").protocolVersion(ProtocolVersion.V2025_11_25)
                .capabilities(Json.object().set("elicitation", Json.object()))
                .serverRequests((method, params) -> Json.object().put("action", "accept")
                        .set("content", Json.object().put("name", "Ada")))
                .build().connect();

        JsonNode result = client.callTool("ask", Json.object().put("kind", "elicitation"), RequestOptions.defaults());

        assertThat(text(result)).contains("\"name\":\"Ada\"");
    }
}

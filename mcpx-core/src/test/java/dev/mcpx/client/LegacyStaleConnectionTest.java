package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.SessionExpiredException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.testkit.chaos.SilentCloses.When;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * A legacy upstream closes the connection a request came on without one byte of response (a
 * kept-alive connection the restarted or idling server no longer serves). The client sends it
 * once more with a new id when a repeat is harmless, and the upstream's counts say how often it
 * really ran.
 */
class LegacyStaleConnectionTest {

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
                .requestTimeout(Duration.ofSeconds(20)).build().connect();
        return client;
    }

    /** Connected, tools known, and the connection pool warm: the next call goes out on a kept-alive connection. */
    private void connectAndList() {
        connect();
        assertThat(client.listTools()).isNotEmpty();
    }

    private JsonNode call(String tool) {
        return client.callTool(tool, Json.object().put("text", "hi"), RequestOptions.defaults());
    }

    private int attempts(String rpcMethod) {
        return upstream.requestIdsSeen(rpcMethod).size();
    }

    private int distinctIds(String rpcMethod) {
        return new HashSet<>(upstream.requestIdsSeen(rpcMethod)).size();
    }

    private long reissues() {
        return client.counters().snapshot().reissues();
    }

    @ParameterizedTest
    @EnumSource(When.class)
    void aReadOnlyToolThatGotNoResponseIsSentOnceMoreWithANewId(When when) {
        connectAndList();
        upstream.closeWithoutAnswer("echo", 1, when);

        JsonNode result = call("echo");

        assertThat(result.path("content").path(0).path("text").asString()).isEqualTo("hi");
        assertThat(upstream.executions("echo")).isEqualTo(when == When.AFTER_RUNNING ? 2 : 1);
        assertThat(attempts("tools/call")).isEqualTo(2);
        assertThat(distinctIds("tools/call")).isEqualTo(2);
        assertThat(reissues()).isEqualTo(1);
        assertThat(client.counters().snapshot().errors()).isZero();
        assertThat(upstream.silentCloses().closedOnKeptAliveConnections()).isEqualTo(1);
    }

    @Test
    void toolsListThatGotNoResponseIsSentOnceMore() {
        connect();
        upstream.closeWithoutAnswer("tools/list", 1, When.AFTER_RUNNING);

        assertThat(client.listTools()).extracting(tool -> tool.name()).contains("echo", "increment");

        assertThat(attempts("tools/list")).isEqualTo(2);
        assertThat(distinctIds("tools/list")).isEqualTo(2);
        assertThat(reissues()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(When.class)
    void aDestructiveToolIsNotSentAgainAndTheCallerGetsTheLoss(When when) {
        connectAndList();
        upstream.closeWithoutAnswer("increment", 1, when);

        assertThatThrownBy(() -> call("increment"))
                .isInstanceOfSatisfying(StreamLostException.class, lost -> assertThat(lost.noResponse()).isTrue())
                .hasMessageContaining("no response to tools/call");

        assertThat(upstream.executions("increment")).isEqualTo(when == When.AFTER_RUNNING ? 1 : 0);
        assertThat(attempts("tools/call")).isEqualTo(1);
        assertThat(reissues()).isZero();
    }

    @Test
    void theOperatorCanAllowAResendTheAnnotationsDoNotClaim() {
        UpstreamEndpoint.Http endpoint = new UpstreamEndpoint.Http(upstream.url(), Map.of(),
                UpstreamEndpoint.HttpKind.STREAMABLE);
        client = McpClient.builder(endpoint).name("legacy").protocolVersion(ProtocolVersion.V2025_11_25)
                .requestTimeout(Duration.ofSeconds(20)).reissue(Map.of("increment", Reissue.ALWAYS)).build().connect();
        upstream.closeWithoutAnswer("increment", 1, When.BEFORE_RUNNING);

        assertThat(call("increment").path("content").path(0).path("text").asString()).isEqualTo("1");
        assertThat(upstream.executions("increment")).isEqualTo(1);
    }

    @Test
    void noResponseTwiceFailsAfterExactlyTwoAttempts() {
        connectAndList();
        upstream.closeWithoutAnswer("echo", 2, When.AFTER_RUNNING);

        assertThatThrownBy(() -> call("echo")).isInstanceOf(StreamLostException.class);

        assertThat(attempts("tools/call")).isEqualTo(2);
        assertThat(distinctIds("tools/call")).isEqualTo(2);
        assertThat(upstream.executions("echo")).isEqualTo(2);
        assertThat(reissues()).isEqualTo(1);
    }

    /**
     * The restart case: the resend meets the restarted server, which no longer knows the session.
     * (No listen stream: its own 404 would start the re-initialize before the resend leaves.)
     */
    @Test
    void aResendThatMeetsAForgottenSessionReinitializesOnceAndSucceeds() {
        upstream.listenStream(false);
        connectAndList();
        upstream.closeWithoutAnswer("echo", 1, When.BEFORE_RUNNING);
        upstream.forgetSessions();

        assertThat(call("echo").path("content").path(0).path("text").asString()).isEqualTo("hi");

        assertThat(attempts("tools/call")).as("dropped, 404, then answered").isEqualTo(3);
        assertThat(distinctIds("tools/call")).isEqualTo(3);
        assertThat(upstream.executions("echo")).isEqualTo(1);
        assertThat(upstream.initializeCount()).isEqualTo(2);
        assertThat(client.counters().snapshot().reinitializations()).isEqualTo(1);
        assertThat(reissues()).isEqualTo(1);
    }

    /**
     * Each recovery at most once per request: no response, then 404 for good, surfaces after
     * three attempts (the fresh session's 404 is the lost-sessions condition, named in the error).
     */
    @Test
    void theBudgetsComposeWithoutALoop() {
        upstream.listenStream(false);
        connectAndList();
        upstream.closeWithoutAnswer("echo", 1, When.BEFORE_RUNNING);
        upstream.rejectEverySession(true);

        assertThatThrownBy(() -> call("echo")).isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("rejects its sessions right after initialize")
                .hasCauseInstanceOf(SessionExpiredException.class);

        assertThat(attempts("tools/call")).isEqualTo(3);
        assertThat(upstream.initializeCount()).isEqualTo(2);
        assertThat(client.counters().snapshot().reinitializations()).isEqualTo(1);
        assertThat(reissues()).isEqualTo(1);
    }

    @Test
    void anInitializeThatGotNoResponseIsSentOnceMore() {
        upstream.closeWithoutAnswer("initialize", 1, When.AFTER_RUNNING);

        connect();

        assertThat(upstream.initializeCount()).as("the first ran, then its connection closed").isEqualTo(2);
        assertThat(attempts("initialize")).isEqualTo(2);
        assertThat(distinctIds("initialize")).isEqualTo(2);
        assertThat(reissues()).isEqualTo(1);
        assertThat(call("echo").path("content").path(0).path("text").asString()).isEqualTo("hi");
    }

    @Test
    void anInitializeThatGotNoResponseTwiceFailsTheConnect() {
        upstream.closeWithoutAnswer("initialize", 2, When.BEFORE_RUNNING);

        assertThatThrownBy(this::connect).isInstanceOf(StreamLostException.class);

        assertThat(attempts("initialize")).isEqualTo(2);
    }

    @Test
    void aNotificationThatGotNoResponseIsSentOnceMore() {
        upstream.closeWithoutAnswer("notifications/initialized", 1, When.BEFORE_RUNNING);

        connect();

        long initialized = upstream.requests().stream()
                .filter(r -> "notifications/initialized".equals(r.rpcMethod())).count();
        assertThat(initialized).isEqualTo(2);
        assertThat(reissues()).isEqualTo(1);
        assertThat(call("echo").path("content").path(0).path("text").asString()).isEqualTo("hi");
    }
}

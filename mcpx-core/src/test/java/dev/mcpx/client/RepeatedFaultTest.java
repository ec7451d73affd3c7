package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream.ResponseMode;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream.SessionLossAnswer;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * A fault that repeats is a condition, not a loop: while it lasts the upstream sees at most a
 * handful of initializes (or re-issues), callers are answered at once with the reason, and the
 * client heals by itself within one backoff step after the upstream does.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RepeatedFaultTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration FIRST_STEP = Duration.ofMillis(500);
    private static final Duration LAST_STEP = Duration.ofSeconds(2);
    /** How long each test keeps the fault up while a caller keeps calling. */
    private static final Duration FAULT = Duration.ofSeconds(6);

    private LegacyHttpUpstream legacy;
    private ModernHttpUpstream modern;
    private McpClient client;

    @AfterEach
    void stopAll() {
        if (client != null) {
            client.close();
        }
        if (legacy != null) {
            legacy.close();
        }
        if (modern != null) {
            modern.close();
        }
    }

    private McpClient connect(java.net.URI url, UpstreamEndpoint.HttpKind kind, ProtocolVersion version) {
        McpClient.Builder builder = McpClient.builder(new UpstreamEndpoint.Http(url, Map.of(), kind)).name("faulty")
                .requestTimeout(TIMEOUT).conditionBackoff(FIRST_STEP, LAST_STEP).eraCache(EraCache.create(Duration.ofMinutes(5)));
        if (version != null) {
            builder.protocolVersion(version);
        }
        client = builder.build().connect();
        return client;
    }

    private JsonNode call(String tool) {
        return client.callTool(tool, Json.object().put("text", "hi"), RequestOptions.defaults());
    }

    /** Calls every 100 ms for {@link #FAULT}; each must be answered at once (refused), never held. */
    private void keepCallingWhileTheFaultLasts(String tool) {
        AtomicInteger slow = new AtomicInteger();
        await().during(FAULT).atMost(FAULT.plusSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() -> {
            long start = System.nanoTime();
            try {
                call(tool);
            } catch (McpException refused) {
                // expected while the condition holds; a probe's own failure is a lost stream or a refusal too
            }
            if (Duration.ofNanos(System.nanoTime() - start).compareTo(TIMEOUT) >= 0) {
                slow.incrementAndGet();
            }
            return slow.get() == 0;
        });
    }

    @ParameterizedTest(name = "{0} over {1}")
    @CsvSource({"NOT_FOUND, JSON", "NOT_FOUND, SSE", "BAD_REQUEST, JSON", "BAD_REQUEST, SSE"})
    void aLegacyUpstreamThatRejectsEverySessionRightAfterInitializeIsAConditionThatHeals(
            SessionLossAnswer answer, ResponseMode mode) {
        legacy = LegacyHttpUpstream.started().sessionLossAnswer(answer).responseMode(mode);
        connect(legacy.url(), UpstreamEndpoint.HttpKind.STREAMABLE, ProtocolVersion.V2025_11_25);
        client.listTools();
        int before = legacy.initializeCount();
        legacy.rejectEverySession(true);

        long start = System.nanoTime();
        assertThatThrownBy(() -> call("echo")).isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("rejects its sessions right after initialize").hasMessageContaining("session affinity");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.plusSeconds(2));
        assertThat(client.degradedReason()).isPresent();
        keepCallingWhileTheFaultLasts("echo");

        int initializes = legacy.initializeCount() - before;
        // one re-initialize for the first call, then one probe per backoff step (0.5, 1, 2, 2 s ...)
        assertThat(initializes).as("initializes while the fault lasted").isBetween(2, 7);
        assertThat(legacy.requestIdsSeen("tools/call")).as("the first call and its one retry; the rest never left")
                .hasSize(2);

        legacy.rejectEverySession(false);
        await().atMost(LAST_STEP.plusSeconds(5)).until(() -> client.degradedReason().isEmpty());
        assertThat(call("echo").path("content").path(0).path("text").asString()).isEqualTo("hi");
    }

    /** Sessions forgotten and then rejected: the listen stream's report of the loss costs one re-initialize, not a loop. */
    @Test
    void aListenStreamThatLosesItsSessionToARejectingUpstreamStartsNoLoop() {
        legacy = LegacyHttpUpstream.started();
        connect(legacy.url(), UpstreamEndpoint.HttpKind.STREAMABLE, ProtocolVersion.V2025_11_25);
        client.listTools();
        await().atMost(Duration.ofSeconds(10)).until(() -> legacy.openListenStreams() == 1);
        int before = legacy.initializeCount();
        legacy.rejectEverySession(true);
        legacy.forgetSessions();

        await().atMost(Duration.ofSeconds(10)).until(() -> legacy.initializeCount() - before == 1);
        await().during(FAULT).atMost(FAULT.plusSeconds(5)).until(() -> legacy.initializeCount() - before == 1);
        assertThatThrownBy(() -> call("echo")).as("the fresh session never answered: no second re-initialize")
                .isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("session affinity");
        assertThat(legacy.initializeCount() - before).isEqualTo(1);
        assertThat(client.degradedReason()).isPresent();

        legacy.rejectEverySession(false);
        await().atMost(LAST_STEP.plusSeconds(5)).until(() -> client.degradedReason().isEmpty());
        assertThat(call("echo").path("content").path(0).path("text").asString()).isEqualTo("hi");
    }

    @Test
    void aModernUpstreamWhoseEveryStreamBreaksIsNotReissuedIntoALoop() {
        modern = ModernHttpUpstream.start();
        connect(modern.url(), UpstreamEndpoint.HttpKind.AUTO, null);
        client.listTools();
        modern.breakStream("read_only_tool", 1_000_000);

        for (int lost = 0; lost < Recovery.STREAM_LOSSES_IN_A_ROW; lost++) {
            assertThatThrownBy(() -> call("read_only_tool")).isInstanceOf(StreamLostException.class);
        }
        assertThat(modern.executions("read_only_tool")).as("each call ran and was re-issued once")
                .isEqualTo(2 * Recovery.STREAM_LOSSES_IN_A_ROW);
        assertThatThrownBy(() -> call("read_only_tool")).isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("every response stream").hasMessageContaining("was not sent");
        keepCallingWhileTheFaultLasts("read_only_tool");

        int duringFault = modern.executions("read_only_tool") - 2 * Recovery.STREAM_LOSSES_IN_A_ROW;
        // one probe call per backoff step, its re-issue refused: about 60 calls came, four or so ran
        assertThat(duringFault).as("executions while the fault lasted").isBetween(1, 6);
        assertThat(client.degradedReason()).isPresent();

        modern.breakStream("read_only_tool", 0);
        JsonNode healed = await().atMost(LAST_STEP.plusSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() -> {
            try {
                return call("read_only_tool");
            } catch (UpstreamUnavailableException refused) {
                return null;
            }
        }, java.util.Objects::nonNull);
        assertThat(healed.path("content").path(0).path("text").asString()).startsWith("read_only_tool execution ");
        assertThat(client.degradedReason()).isEmpty();
    }

    /** The re-initialize spends the request's deadline: a slow initialize cannot double the caller's wait. */
    @Test
    void aReinitializeIsBoundByTheRequestsOwnDeadline() {
        legacy = LegacyHttpUpstream.started().listenStream(false);
        connect(legacy.url(), UpstreamEndpoint.HttpKind.STREAMABLE, ProtocolVersion.V2025_11_25);
        client.listTools();
        legacy.forgetSessions();
        legacy.initializeDelay(Duration.ofSeconds(8));
        Duration mine = Duration.ofSeconds(1);

        long start = System.nanoTime();
        assertThatThrownBy(() -> client.callTool("echo", Json.object().put("text", "hi"),
                RequestOptions.defaults().withTimeout(mine))).isInstanceOf(RequestTimeoutException.class);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the caller's 1 s, not the client's 5 s for the"
                + " initialize plus 1 s for the retry").isLessThan(mine.plusSeconds(2));
    }
}

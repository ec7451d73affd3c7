package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.ToolDescriptor;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A request still in flight on a legacy transport when an era switch closes it cannot resume
 * its stream there (the server behind the address now speaks the other era), so it is treated
 * as a broken modern stream: re-issued once on the new transport when a repeat is harmless,
 * surfaced otherwise. Before, a concurrent read at the switch failed with the stream-lost error
 * (a CI run of EraSwitchTest#concurrentCallsAtTheSwitchShareOneReprobe).
 */
class LeftBehindRequestTest {

    private static final Map<String, ToolDescriptor> TOOLS = Map.of(
            "read", ToolDescriptor.from(Json.parse("{\"name\": \"read\", \"inputSchema\": {\"type\": \"object\"},"
                    + " \"annotations\": {\"readOnlyHint\": true}}")),
            "delete", ToolDescriptor.from(Json.parse("{\"name\": \"delete\", \"inputSchema\": {\"type\": \"object\"},"
                    + " \"annotations\": {\"destructiveHint\": true}}")));

    private final FaultCondition condition = new FaultCondition("left", Duration.ofHours(1), Duration.ofHours(1));
    private final Recovery recovery = new Recovery("left", new SessionRecovery(), new Resends("left",
            new ReissuePolicy(Map.of()), new ClientCounters()), TOOLS::get, () -> true, () -> 0, null, condition,
            () -> false);

    @AfterEach
    void closeCondition() {
        condition.close();
    }

    @Test
    void aReadLeftOnTheClosedLegacyTransportIsReissued() {
        assertThat(decide(leftBehind(), Methods.RESOURCES_LIST, null)).isInstanceOf(Recovery.Action.Reissue.class);
        assertThat(decide(leftBehind(), Methods.TOOLS_CALL, Json.object().put("name", "read")))
                .isInstanceOf(Recovery.Action.Reissue.class);
    }

    @Test
    void aDestructiveToolLeftBehindIsNotRepeated() {
        assertThat(decide(leftBehind(), Methods.TOOLS_CALL, Json.object().put("name", "delete")))
                .isInstanceOf(Recovery.Action.Surface.class);
    }

    @Test
    void anOrdinaryBrokenLegacyStreamIsStillLeftToItsResume() {
        StreamLostException cut = new StreamLostException(RequestId.of(7), "cut", null);
        assertThat(decide(cut, Methods.RESOURCES_LIST, null)).isInstanceOf(Recovery.Action.Surface.class);
    }

    private Recovery.Action decide(StreamLostException lost, String method, ObjectNode params) {
        return recovery.decide(new Recovery.Failure(lost, method, params, Era.LEGACY, 0, false),
                Recovery.Attempts.start(Deadline.after(method, Duration.ofMinutes(1))));
    }

    private static StreamLostException leftBehind() {
        return new StreamLostException(RequestId.of(7), "the upstream changed era while the request was in flight",
                new EraSwitch.LeftBehind());
    }
}

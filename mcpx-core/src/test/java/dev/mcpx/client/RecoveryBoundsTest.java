package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.AuthorizationRequiredException;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.SessionExpiredException;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.ToolDescriptor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.node.ObjectNode;

/**
 * The worst case docs/reliability.md states, proven on the decision itself: whatever the
 * upstream answers, attempt after attempt, one request makes at most eight attempts (four
 * recoveries, each kind at most once, two renewals of an OAuth upstream's credentials and one
 * retry with a DPoP nonce), and none once its deadline has passed.
 */
class RecoveryBoundsTest {

    /** What an attempt can fail with, as the transports and the upstream report it. */
    enum Fault { SESSION_LOST, STREAM_BROKE, NO_RESPONSE, HEADER_MISMATCH, VERSION_REFUSED, OTHER_ERA, REPLACED,
        UNAUTHORIZED, INSUFFICIENT_SCOPE, DPOP_NONCE }

    private static final ToolDescriptor HARMLESS = ToolDescriptor.from(Json.parse(
            "{\"name\": \"read\", \"inputSchema\": {\"type\": \"object\"}, \"annotations\": {\"readOnlyHint\": true}}"));

    @Provide
    Arbitrary<List<Fault>> faults() {
        return Arbitraries.of(Fault.class).list().ofMinSize(1).ofMaxSize(12);
    }

    @Property(tries = 2000)
    void noSequenceOfFailuresGetsMoreThanEightAttempts(@ForAll("faults") List<Fault> faults, @ForAll Era era,
                                                      @ForAll boolean toolCall) {
        FaultCondition condition = new FaultCondition("bounds", Duration.ofHours(1), Duration.ofHours(1));
        Recovery recovery = new Recovery("bounds", new SessionRecovery(), new Resends("bounds", new ReissuePolicy(Map.of()),
                new ClientCounters()), tool -> HARMLESS, () -> true, () -> 0, null, condition, () -> false);
        String method = toolCall ? Methods.TOOLS_CALL : Methods.TOOLS_LIST;
        ObjectNode params = toolCall ? Json.object().put("name", "read") : null;
        Recovery.Attempts attempts = Recovery.Attempts.start(Deadline.after(method, Duration.ofMinutes(1)));
        int attemptsMade = 1;
        try {
            for (Fault fault : faults) {
                Recovery.Action action = recovery.decide(new Recovery.Failure(failure(fault, era), method, params, era, 0,
                        false), attempts);
                if (action instanceof Recovery.Action.Surface) {
                    break;
                }
                attempts = attempts.after(action);
                attemptsMade++;
            }
        } finally {
            condition.close();
        }
        assertThat(attemptsMade).isLessThanOrEqualTo(8);
    }

    @Example
    void aDpopNonceIsRetriedOncePerRequestAndTheSecondSurfaces() {
        FaultCondition condition = new FaultCondition("bounds", Duration.ofHours(1), Duration.ofHours(1));
        Recovery recovery = new Recovery("bounds", new SessionRecovery(), new Resends("bounds", new ReissuePolicy(Map.of()),
                new ClientCounters()), tool -> HARMLESS, () -> true, () -> 0, null, condition, () -> false);
        Recovery.Attempts attempts = Recovery.Attempts.start(Deadline.after(Methods.TOOLS_LIST, Duration.ofMinutes(1)));
        McpException nonce = failure(Fault.DPOP_NONCE, Era.MODERN);
        try {
            Recovery.Action first = recovery.decide(new Recovery.Failure(nonce, Methods.TOOLS_LIST, null, Era.MODERN, 0,
                    false), attempts);
            assertThat(first).isInstanceOf(Recovery.Action.RetryWithDpopNonce.class);
            Recovery.Action second = recovery.decide(new Recovery.Failure(nonce, Methods.TOOLS_LIST, null, Era.MODERN, 0,
                    false), attempts.after(first));
            assertThat(second).isInstanceOf(Recovery.Action.Surface.class);
            // a nonce asked for is not an expired token: no renewal is spent on it
            assertThat(attempts.after(first).renewals()).isZero();
        } finally {
            condition.close();
        }
    }

    @Property(tries = 200)
    void aRequestWhoseDeadlinePassedIsNeverRecovered(@ForAll Fault fault, @ForAll Era era) {
        FaultCondition condition = new FaultCondition("bounds", Duration.ofHours(1), Duration.ofHours(1));
        Recovery recovery = new Recovery("bounds", new SessionRecovery(), new Resends("bounds", new ReissuePolicy(Map.of()),
                new ClientCounters()), tool -> HARMLESS, () -> true, () -> 0, null, condition, () -> false);
        Recovery.Attempts spent = Recovery.Attempts.start(Deadline.after(Methods.TOOLS_LIST, Duration.ZERO));

        Recovery.Action action = recovery.decide(new Recovery.Failure(failure(fault, era), Methods.TOOLS_LIST, null, era, 0,
                false), spent);

        condition.close();
        assertThat(action).isInstanceOf(Recovery.Action.Surface.class);
    }

    private static McpException failure(Fault fault, Era era) {
        RequestId id = RequestId.of(1);
        return switch (fault) {
            case SESSION_LOST -> new SessionExpiredException("session-0001", 404, "Session not found");
            case STREAM_BROKE -> new StreamLostException(id, "cut", null);
            case NO_RESPONSE -> StreamLostException.noResponse(id, "tools/list", "upstream", null);
            case HEADER_MISMATCH -> new McpErrorException(JsonRpcError.of(ErrorCodes.HEADER_MISMATCH, "header mismatch"));
            case VERSION_REFUSED -> new McpErrorException(new JsonRpcError(ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
                    "unsupported", Json.parse("{\"supported\": [\"2026-07-28\"]}")));
            case OTHER_ERA -> era == Era.MODERN
                    ? new McpErrorException(JsonRpcError.of(-32000, "Bad Request: Mcp-Session-Id header is required"))
                    : new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, "_meta must carry io.modelcontextprotocol/protocolVersion"));
            case REPLACED -> EraSwitch.replacedBeforeSending("bounds");
            case UNAUTHORIZED -> new AuthorizationRequiredException(401, "Bearer error=\"invalid_token\"", "Bearer t", null);
            case INSUFFICIENT_SCOPE -> new AuthorizationRequiredException(403, "Bearer error=\"insufficient_scope\"",
                    "Bearer t", null);
            case DPOP_NONCE -> new AuthorizationRequiredException(401, "DPoP error=\"use_dpop_nonce\"", "DPoP t", "n-1");
        };
    }
}

package dev.mcpx.client;

import dev.mcpx.protocol.AuthorizationRequiredException;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.SessionExpiredException;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.ToolDescriptor;
import dev.mcpx.protocol.UpstreamUnavailableException;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every recovery a request can get, and its bounds, decided in one place (shaped like the JDK
 * HTTP client's retry: a small record of what the request has left, one method from a failure to
 * what to do). Every request of the client goes through it, whoever sends it: a host's call,
 * the catalogue refresh after a re-initialize, a subscription, a probe.
 *
 * <p>Per request, each at most once: re-initialize then retry (a legacy session the upstream no
 * longer knows, Phase 1), re-issue with a new id (a lost modern stream, or a POST of either era
 * that got no response, when a repeat is harmless: Phase 2, {@link Resends}), one correction
 * (refresh {@code tools/list} after a header mismatch, or adopt the version a -32022 lists),
 * one era switch (or one send again after the connection was replaced under the request), and
 * up to {@link #MAX_RENEWALS} renewals of its credentials (an OAuth upstream's 401: refresh or
 * authorize; its 403 {@code insufficient_scope}: step up), and one retry with the DPoP nonce the
 * upstream asked for (401 {@code use_dpop_nonce}). So a request makes at most eight
 * attempts (plus its MRTR input rounds, at most {@link #MAX_INPUT_ROUNDS}), all within its one
 * {@link Deadline}.
 *
 * <p>Across requests, a fault that repeats is a {@link FaultCondition}: a session lost before
 * any request in it was answered (right after its initialize), {@link #STREAM_LOSSES_IN_A_ROW}
 * requests that lost their modern stream for good with no answer between them, or the era
 * changing again right after a switch or a re-probe with no answer between them. Then requests
 * are refused at once until a probe passes, one probe per backoff step.
 */
final class Recovery {

    static final int MAX_INPUT_ROUNDS = 8;
    static final int STREAM_LOSSES_IN_A_ROW = 3;
    /** A 401 then a 403 for one request: authorize (or refresh), then step up once; a third refusal surfaces. */
    static final int MAX_RENEWALS = 2;

    /** What a request has spent so far, and until when it may go on. */
    record Attempts(Deadline deadline, boolean reinitialized, boolean reissued, boolean corrected, boolean switched,
                    int inputRounds, int renewals, boolean nonceRetried) {

        static Attempts start(Deadline deadline) {
            return new Attempts(deadline, false, false, false, false, 0, 0, false);
        }

        Attempts after(Action action) {
            return switch (action) {
                case Action.ReinitializeThenRetry r -> new Attempts(deadline, true, reissued, corrected, switched, inputRounds,
                        renewals, nonceRetried);
                case Action.Reissue r -> new Attempts(deadline, reinitialized, true, corrected, switched, inputRounds, renewals,
                        nonceRetried);
                case Action.RefreshToolsThenRetry r -> new Attempts(deadline, reinitialized, reissued, true, switched,
                        inputRounds, renewals, nonceRetried);
                case Action.AdoptVersionThenRetry r -> new Attempts(deadline, reinitialized, reissued, true, switched,
                        inputRounds, renewals, nonceRetried);
                case Action.SwitchEra r -> new Attempts(deadline, reinitialized, reissued, corrected, true, inputRounds,
                        renewals, nonceRetried);
                case Action.Retry r -> new Attempts(deadline, reinitialized, reissued, corrected, true, inputRounds, renewals,
                        nonceRetried);
                case Action.RenewCredentialsThenRetry r -> new Attempts(deadline, reinitialized, reissued, corrected, switched,
                        inputRounds, renewals + 1, nonceRetried);
                case Action.RetryWithDpopNonce r -> new Attempts(deadline, reinitialized, reissued, corrected, switched,
                        inputRounds, renewals, true);
                case Action.Surface r -> this;
            };
        }

        Attempts afterInputRound(String method) {
            if (inputRounds + 1 > MAX_INPUT_ROUNDS) {
                throw new McpErrorException(JsonRpcError.of(ErrorCodes.INTERNAL_ERROR,
                        method + " still asked for input after " + MAX_INPUT_ROUNDS + " rounds"));
            }
            return new Attempts(deadline, reinitialized, reissued, corrected, switched, inputRounds + 1, renewals,
                    nonceRetried);
        }
    }

    /** What to do about a failed attempt. */
    sealed interface Action {
        /** Send it again as it is: it never left (its connection was replaced while it waited). */
        record Retry() implements Action {
        }

        /** The session sent in {@code seenGeneration} is dead: re-initialize (once for all its callers), then retry. */
        record ReinitializeThenRetry(long seenGeneration, String deadSessionId) implements Action {
        }

        /** Its response was lost and a repeat is harmless: send it once more with a new id. */
        record Reissue(StreamLostException lost) implements Action {
        }

        /** The upstream's tool schema moved on: refresh {@code tools/list}, then retry. */
        record RefreshToolsThenRetry() implements Action {
        }

        /** The upstream refused the version and listed one mcpx speaks: speak that, then retry. */
        record AdoptVersionThenRetry(ProtocolVersion version) implements Action {
        }

        /** The answer says the upstream speaks the other era now: re-probe once, then retry there. */
        record SwitchEra(McpException signal) implements Action {
        }

        /**
         * The upstream refused the request's credentials (401: none, or expired; 403: too narrow
         * a scope): renew them (refresh, authorize, step up; once for all the requests refused the
         * same token), then retry.
         */
        record RenewCredentialsThenRetry(AuthorizationRequiredException refused) implements Action {
        }

        /**
         * The upstream wants the request's DPoP proof to carry the nonce it gave (401
         * {@code use_dpop_nonce}): keep the nonce, then retry with the same token.
         */
        record RetryWithDpopNonce(AuthorizationRequiredException refused) implements Action {
        }

        /** No recovery left: the caller gets {@code error}. */
        record Surface(McpException error) implements Action {
        }
    }

    /**
     * One failed attempt: its error, the request, the era and session generation it was sent in,
     * and whether its connection has been replaced since (another request's switch).
     */
    record Failure(McpException error, String method, ObjectNode params, Era era, long generation, boolean replaced) {
    }

    /** The active probes of the conditions that have one. */
    interface Probes {
        /** Re-initializes and pings; true when the fresh session answered. */
        boolean sessions();
    }

    private final String name;
    private final SessionRecovery sessions;
    private final Resends resends;
    private final Function<String, ToolDescriptor> lookUpTool;
    private final BooleanSupplier mayRedetect;
    private final ProtocolVersion pinnedVersion;
    private final FaultCondition condition;
    private final Probes probes;
    private final AtomicInteger streamLossesInARow = new AtomicInteger();
    private final LongSupplier reprobes;
    private volatile long reprobesAtLastAnswer;

    Recovery(String name, SessionRecovery sessions, Resends resends, Function<String, ToolDescriptor> lookUpTool,
             BooleanSupplier mayRedetect, LongSupplier reprobes, ProtocolVersion pinnedVersion, FaultCondition condition,
             Probes probes) {
        this.name = name;
        this.sessions = sessions;
        this.resends = resends;
        this.lookUpTool = lookUpTool;
        this.mayRedetect = mayRedetect;
        this.reprobes = reprobes;
        this.pinnedVersion = pinnedVersion;
        this.condition = condition;
        this.probes = probes;
    }

    /**
     * Before each attempt: refused at once while a condition holds (unless this request's first
     * attempt is its probe: then true), or when the request's deadline has passed.
     */
    boolean admit(String method, Attempts attempts, boolean firstAttempt) {
        if (attempts.deadline().passed()) {
            throw attempts.deadline().expired();
        }
        boolean probing = condition.current().isPresent();
        UpstreamUnavailableException refused = condition.refusal(method, firstAttempt);
        if (refused != null) {
            throw refused;
        }
        return probing && firstAttempt;
    }

    /** The request let through as a condition's probe failed: the next step is twice as long. */
    void probeFailed() {
        condition.failedAgain();
    }

    /** The upstream answered an attempt (a result or a JSON-RPC error): streams work, a probe out passed. */
    void answered() {
        streamLossesInARow.set(0);
        reprobesAtLastAnswer = reprobes.getAsLong();
        condition.passed();
    }

    Action decide(Failure failure, Attempts attempts) {
        McpException error = failure.error();
        if (error instanceof RequestTimeoutException) {
            // a later attempt timed out on what was left: the caller is told the whole time it gave
            return new Action.Surface(attempts.deadline().expired());
        }
        if (error instanceof RequestCancelledException || attempts.deadline().passed()) {
            return new Action.Surface(error);
        }
        if (error instanceof McpErrorException && !EraSwitch.suggestsOtherEra(failure.era(), error)) {
            answered();
        }
        if (error.getCause() instanceof EraSwitch.Replaced) {
            return attempts.switched() ? new Action.Surface(new UpstreamUnavailableException(name + ": the connection to"
                    + " the upstream was replaced twice while this request waited to be sent (its era keeps changing);"
                    + " not trying a third time", error)) : new Action.Retry();
        }
        return switch (error) {
            case AuthorizationRequiredException refused when refused.asksForDpopNonce() -> attempts.nonceRetried()
                    ? new Action.Surface(refused) : new Action.RetryWithDpopNonce(refused);
            case AuthorizationRequiredException refused -> attempts.renewals() < MAX_RENEWALS
                    ? new Action.RenewCredentialsThenRetry(refused) : new Action.Surface(refused);
            case SessionExpiredException expired when failure.era() == Era.LEGACY
                    && !Methods.INITIALIZE.equals(failure.method()) -> sessionLost(failure, expired, attempts);
            case StreamLostException lost -> streamLost(failure, lost, attempts);
            case McpErrorException refused when failure.era() == Era.MODERN && !attempts.corrected()
                    && refused.code() == ErrorCodes.HEADER_MISMATCH && Methods.TOOLS_CALL.equals(failure.method()) ->
                    new Action.RefreshToolsThenRetry();
            case McpErrorException refused when failure.era() == Era.MODERN && !attempts.corrected()
                    && refused.code() == ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION && speakable(refused) != null ->
                    new Action.AdoptVersionThenRetry(speakable(refused));
            default -> otherEra(failure, error, attempts);
        };
    }

    /** Phase 1, bounded: a fresh session lost before it answered anything is the condition, not a restart. */
    private Action sessionLost(Failure failure, SessionExpiredException expired, Attempts attempts) {
        if (sessions.lostRightAfterInitialize(failure.generation())) {
            return new Action.Surface(sessionsLostRightAfterInitialize(failure.method(), expired));
        }
        if (attempts.reinitialized()) {
            return new Action.Surface(expired);
        }
        return new Action.ReinitializeThenRetry(failure.generation(), expired.sessionId());
    }

    /**
     * Enters the lost-sessions condition (the re-initialize just found the dead session fresh, or
     * a request saw it) and returns the error its caller gets.
     */
    UpstreamUnavailableException sessionsLostRightAfterInitialize(String method, SessionExpiredException expired) {
        String answer = expired == null ? "" : " (HTTP " + expired.status() + ")";
        condition.enter(FaultCondition.Kind.SESSIONS_LOST_AFTER_INITIALIZE, "upstream rejects its sessions right after"
                + " initialize" + answer + ": likely no session affinity in the load balancer in front of it, or a"
                + " server that forgets sessions at once", probes::sessions);
        return condition.failure(method, expired);
    }

    /**
     * Phase 2 and dead keep-alives, bounded: requests that lost their modern stream for good (the
     * re-issue broke too, or there was none to make), again and again with no answer between
     * them, are a condition.
     */
    private Action streamLost(Failure failure, StreamLostException lost, Attempts attempts) {
        if (!attempts.reissued() && resends.mayReissue(failure.era(), lost, failure.method(), failure.params(), lookUpTool)) {
            return new Action.Reissue(lost);
        }
        if (failure.era() == Era.MODERN && !lost.noResponse()
                && streamLossesInARow.incrementAndGet() >= STREAM_LOSSES_IN_A_ROW) {
            condition.enter(FaultCondition.Kind.EVERY_STREAM_BREAKS, "every response stream of the upstream breaks"
                    + " before its response (" + streamLossesInARow.get() + " requests in a row lost theirs): a proxy"
                    + " that cuts streams, or a server that fails every request", null);
        }
        return new Action.Surface(lost);
    }

    /** An answer that says "wrong era": one switch per request; the era changing again right after is a condition. */
    private Action otherEra(Failure failure, McpException error, Attempts attempts) {
        if (!mayRedetect.getAsBoolean() || !EraSwitch.suggestsOtherEra(failure.era(), error)) {
            return new Action.Surface(error);
        }
        String era = failure.era().name().toLowerCase(Locale.ROOT);
        boolean reprobedSinceAnswer = reprobes.getAsLong() > reprobesAtLastAnswer;
        boolean probe = condition.current().map(FaultCondition.State::probing).orElse(false);
        if (!attempts.switched() && (failure.replaced() || !reprobedSinceAnswer || probe)) {
            return new Action.SwitchEra(error);
        }
        condition.enter(FaultCondition.Kind.ERA_FLIPS, "upstream keeps changing era (it answered like the other era"
                + " again right after a re-probe, with nothing answered in between): two servers of different eras"
                + " behind one address?", null);
        if (attempts.switched()) {
            return new Action.Surface(new UpstreamUnavailableException(name + ": upstream changed era again right after"
                    + " the client switched to " + era + " (" + error.getMessage() + "); not re-probing twice for one"
                    + " request", error));
        }
        return new Action.Surface(condition.failure(failure.method(), error));
    }

    /** The modern version a -32022 lists that this client may speak, or null. */
    private ProtocolVersion speakable(McpErrorException refused) {
        JsonNode data = refused.error().data();
        ProtocolVersion chosen = EraDetection.chooseModern(data == null ? null : data.path("supported"));
        return chosen == null || pinnedVersion != null && chosen != pinnedVersion ? null : chosen;
    }
}

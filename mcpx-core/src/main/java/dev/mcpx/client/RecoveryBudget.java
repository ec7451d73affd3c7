package dev.mcpx.client;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;

/**
 * What one request may still spend on recovery: one re-initialize (Phase 1), one re-issue
 * (Phase 2), one correction (header refresh or version change), a few MRTR rounds. Each
 * recovery happens at most once per request, so no failure can loop.
 */
record RecoveryBudget(boolean reinitialized, boolean reissued, boolean corrected, int inputRounds) {

    static final int MAX_INPUT_ROUNDS = 8;

    static RecoveryBudget full() {
        return new RecoveryBudget(false, false, false, 0);
    }

    boolean mayReinitialize() {
        return !reinitialized;
    }

    boolean mayReissue() {
        return !reissued;
    }

    boolean mayCorrect() {
        return !corrected;
    }

    RecoveryBudget afterReinitialize() {
        return new RecoveryBudget(true, reissued, corrected, inputRounds);
    }

    RecoveryBudget afterReissue() {
        return new RecoveryBudget(reinitialized, true, corrected, inputRounds);
    }

    RecoveryBudget afterCorrection() {
        return new RecoveryBudget(reinitialized, reissued, true, inputRounds);
    }

    RecoveryBudget afterInputRound(String method) {
        if (inputRounds + 1 > MAX_INPUT_ROUNDS) {
            throw new McpErrorException(JsonRpcError.of(ErrorCodes.INTERNAL_ERROR,
                    method + " still asked for input after " + MAX_INPUT_ROUNDS + " rounds"));
        }
        return new RecoveryBudget(reinitialized, reissued, corrected, inputRounds + 1);
    }
}

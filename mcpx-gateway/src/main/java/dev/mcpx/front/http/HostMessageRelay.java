package dev.mcpx.front.http;

import java.util.function.BiConsumer;

/**
 * Carries what a legacy host posted about a call that runs on another replica (its answer to
 * one of the call's requests, its {@code notifications/cancelled}) to every replica, so the one
 * running the call gets it: behind a round-robin balancer the POST lands anywhere.
 */
public interface HostMessageRelay {

    /** One process: every call runs here, there is nowhere else to look. */
    HostMessageRelay ALONE = new HostMessageRelay() {
        @Override
        public void forward(String sessionId, String message) {
        }

        @Override
        public void onForwarded(BiConsumer<String, String> deliver) {
        }
    };

    /** Sends {@code message} (JSON-RPC text) of session {@code sessionId} to the other replicas. */
    void forward(String sessionId, String message);

    /** {@code deliver} receives the session id and message the other replicas forwarded. */
    void onForwarded(BiConsumer<String, String> deliver);
}

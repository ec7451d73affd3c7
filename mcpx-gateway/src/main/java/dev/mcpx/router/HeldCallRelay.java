package dev.mcpx.router;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Carries a modern host's retry of a held call to the process that holds it: behind a balancer
 * with no affinity, the retry with its {@code requestState} lands on any replica, while the held
 * call (and its upstream call) lives in the process that issued the token. Alone, there is no
 * other process, and a token another process issued is refused at once.
 */
public interface HeldCallRelay {

    /** One process: nowhere to forward to. */
    HeldCallRelay ALONE = new HeldCallRelay() {
        @Override
        public boolean reaches() {
            return false;
        }

        @Override
        public JsonNode forward(String issuer, String method, ObjectNode hostParams, ObjectNode hostCapabilities) {
            throw new IllegalStateException("no other process to forward to");
        }

        @Override
        public void serve(String issuer, Holder holder) {
        }
    };

    /** What a process does with a retry forwarded to it: routes it as if its host had sent it there. */
    interface Holder {
        /** @throws dev.mcpx.protocol.McpException what the host is answered with instead */
        JsonNode route(String method, ObjectNode hostParams, ObjectNode hostCapabilities);
    }

    /** Whether other processes can be reached at all. */
    boolean reaches();

    /**
     * The answer the process {@code issuer} gives to the host's retry: a result, or its error
     * thrown as a {@link dev.mcpx.protocol.McpException}, or a clear error at once when that
     * process is gone (never a wait for one that died).
     */
    JsonNode forward(String issuer, String method, ObjectNode hostParams, ObjectNode hostCapabilities);

    /** From now on this process, which issues tokens as {@code issuer}, answers the retries forwarded to it. */
    void serve(String issuer, Holder holder);
}

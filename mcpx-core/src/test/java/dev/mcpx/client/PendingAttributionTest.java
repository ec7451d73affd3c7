package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.RequestId;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Over stdio a log line or a server request names no request, so it goes to the one request in
 * flight that takes them. A request whose answer the reader has handed over is no longer in
 * flight, though its waiter has not yet woken to leave the table: what the server sends after the
 * answer is the session's, not that request's.
 */
class PendingAttributionTest {

    @Test
    void anAnsweredRequestTakesNoLaterLogLineOrServerRequest() {
        PendingRequests pending = new PendingRequests();
        Consumer<ObjectNode> logs = line -> { };
        ServerRequestHandler asks = (method, params) -> Json.object();
        RequestId id = RequestId.of(7);
        pending.register(id, "tools/call", null, asks, logs);
        assertThat(pending.soleLogs()).isSameAs(logs);
        assertThat(pending.soleHandler()).isSameAs(asks);

        assertThat(pending.complete(id, new Result(id, Json.object()))).isTrue();

        assertThat(pending.size()).as("its waiter has not left yet").isEqualTo(1);
        assertThat(pending.soleLogs()).isNull();
        assertThat(pending.soleHandler()).isNull();
    }
}

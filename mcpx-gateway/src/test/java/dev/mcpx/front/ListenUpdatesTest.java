package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.RequestId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** What a modern host's listen stream receives, in order, as the gateway writes it. */
class ListenUpdatesTest {

    private final List<JsonRpcMessage> sent = new CopyOnWriteArrayList<>();
    private final JsonRpcCodec codec = new JsonRpcCodec();

    @Test
    void anUpdateThatArrivesBeforeTheAcknowledgmentIsSentAfterIt() {
        ListenUpdates updates = new ListenUpdates(RequestId.of("sub-9"), sent::add);

        updates.updated(Json.object().put("uri", "test://a"));
        assertThat(sent).isEmpty();
        updates.open(new Notification("notifications/subscriptions/acknowledged", Json.object()));
        updates.updated(Json.object().put("uri", "test://b"));

        assertThat(sent).extracting(codec::encode).containsExactly(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"test://a\","
                        + "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"sub-9\"}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"test://b\","
                        + "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"sub-9\"}}}");
    }
}

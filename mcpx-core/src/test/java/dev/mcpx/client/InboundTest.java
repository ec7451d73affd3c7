package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.TransportKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the client takes from a transport that is not its current one: a re-probe stands the
 * connection aside while it probes (a false alarm then puts it back), so a request in flight
 * there is still live and must get all of its messages, not only its answer.
 */
@Timeout(30)
class InboundTest {

    private final PendingRequests pending = new PendingRequests();
    private final RecordingTransport inUse = new RecordingTransport();
    private final RecordingTransport probing = new RecordingTransport();
    private final FakeLink link = new FakeLink();
    private final Inbound inbound = new Inbound("test", pending, new SessionRecovery(), (method, params) -> Json.object(),
            new Resends("test", new ReissuePolicy(Map.of()), new ClientCounters()), Duration.ofSeconds(5), link);

    @Test
    void progressOfARequestInFlightOnAConnectionStoodAsideForAProbeReachesItsCaller() {
        List<ObjectNode> progress = new CopyOnWriteArrayList<>();
        PendingRequests.Waiter waiter = pending.register(RequestId.of(7), "tools/call", progress::add);
        link.current = probing;

        inbound.onTransportEvent(inUse, new TransportEvent.Received(progress(7, 1)));
        inbound.onTransportEvent(inUse, new TransportEvent.Received(new Result(RequestId.of(7), Json.object())));

        assertThat(progress).extracting(p -> p.path("progress").asInt()).containsExactly(1);
        assertThat(waiter.reply()).isCompleted();
    }

    @Test
    void aServerRequestOnTheStreamOfSuchARequestIsAnsweredWhereItCameFrom() {
        pending.register(RequestId.of(7), "tools/call", null,
                (method, params) -> Json.object().put("answeredBy", "the call"), null);
        link.current = probing;

        inbound.onTransportEvent(inUse, new TransportEvent.Received(
                new Request(RequestId.of(1), "sampling/createMessage", Json.object()), RequestId.of(7)));

        await().atMost(Duration.ofSeconds(10)).until(() -> !inUse.sent.isEmpty());
        assertThat(inUse.sent.getFirst()).isInstanceOfSatisfying(Result.class,
                r -> assertThat(r.result().path("answeredBy").asString()).isEqualTo("the call"));
        assertThat(probing.sent).isEmpty();
    }

    @Test
    void aLogLineOnSuchARequestsStreamGoesToItsCallOnly() {
        List<ObjectNode> logs = new CopyOnWriteArrayList<>();
        pending.register(RequestId.of(7), "tools/call", null, null, logs::add);
        link.current = probing;

        inbound.onTransportEvent(inUse, new TransportEvent.Received(
                new Notification("notifications/message", Json.object().put("data", "step")), RequestId.of(7)));

        assertThat(logs).hasSize(1);
        assertThat(link.emitted).isEmpty();
    }

    @Test
    void whatBelongsToNoPendingRequestIsStillDroppedFromAnotherConnection() {
        List<ObjectNode> progress = new CopyOnWriteArrayList<>();
        pending.register(RequestId.of(7), "tools/call", progress::add);
        link.current = probing;

        inbound.onTransportEvent(inUse, new TransportEvent.Received(progress(8, 1)));
        inbound.onTransportEvent(inUse, new TransportEvent.Received(new Notification("notifications/tools/list_changed", null)));
        inbound.onTransportEvent(inUse, new TransportEvent.Received(
                new Notification("notifications/message", Json.object().put("data", "who?"))));
        inbound.onTransportEvent(inUse, new TransportEvent.Received(
                new Request(RequestId.of(2), "sampling/createMessage", Json.object()), RequestId.of(9)));

        assertThat(progress).isEmpty();
        assertThat(link.listChanges).isEmpty();
        assertThat(link.emitted).isEmpty();
        assertThat(inUse.sent).isEmpty();
    }

    private static JsonRpcMessage progress(long token, int value) {
        ObjectNode params = Json.object().put("progress", value).put("total", 3);
        params.set("progressToken", RequestId.of(token).toJson());
        return new Notification("notifications/progress", params);
    }

    private static final class FakeLink implements Inbound.Link {
        volatile Transport current;
        final List<CatalogueKind> listChanges = new CopyOnWriteArrayList<>();
        final List<ClientEvent> emitted = new CopyOnWriteArrayList<>();

        @Override
        public Transport transport() {
            return current;
        }

        @Override
        public Era era() {
            return Era.LEGACY;
        }

        @Override
        public boolean listChangeIsLive(ObjectNode params) {
            return true;
        }

        @Override
        public ResourceWatch resourceWatch() {
            return null;
        }

        @Override
        public void recoverSession(long seenGeneration, String deadSessionId) {
        }

        @Override
        public void closed(McpException cause) {
        }

        @Override
        public void listChanged(CatalogueKind kind) {
            listChanges.add(kind);
        }

        @Override
        public void emit(ClientEvent event) {
            emitted.add(event);
        }
    }

    /** A legacy HTTP connection that keeps what is sent on it. */
    private static final class RecordingTransport implements Transport {
        final List<JsonRpcMessage> sent = new CopyOnWriteArrayList<>();

        @Override
        public void start(Consumer<TransportEvent> events) {
        }

        @Override
        public void send(Outbound outbound) {
            sent.add(outbound.message());
        }

        @Override
        public TransportKind kind() {
            return TransportKind.HTTP_SSE;
        }

        @Override
        public String description() {
            return "recording";
        }

        @Override
        public void close() {
        }
    }
}

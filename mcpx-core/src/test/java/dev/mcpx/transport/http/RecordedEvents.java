package dev.mcpx.transport.http;

import static org.assertj.core.api.Assertions.fail;

import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.transport.TransportEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** What a transport delivered, with waits for what a test expects next. */
final class RecordedEvents implements Consumer<TransportEvent> {

    private final List<TransportEvent> events = new CopyOnWriteArrayList<>();

    @Override
    public synchronized void accept(TransportEvent event) {
        events.add(event);
        notifyAll();
    }

    List<TransportEvent> all() {
        return List.copyOf(events);
    }

    List<JsonRpcMessage> messages() {
        return events.stream().filter(e -> e instanceof TransportEvent.Received)
                .map(e -> ((TransportEvent.Received) e).message()).toList();
    }

    /** The response (result or error) to {@code id}. */
    JsonRpcMessage response(RequestId id) {
        TransportEvent.Received received = (TransportEvent.Received) await(e -> e instanceof TransportEvent.Received r
                && switch (r.message()) {
                    case JsonRpcMessage.Result result -> result.id().equals(id);
                    case JsonRpcMessage.ErrorResponse error -> id.equals(error.id());
                    default -> false;
                }, Duration.ofSeconds(10), "the response to " + id);
        return received.message();
    }

    JsonRpcMessage.Result result(RequestId id) {
        JsonRpcMessage response = response(id);
        if (response instanceof JsonRpcMessage.Result result) {
            return result;
        }
        return fail("expected a result for " + id + " but got " + response);
    }

    /** Why the request {@code id} failed, as the transport reported it. */
    McpException failure(RequestId id) {
        TransportEvent.RequestFailed failed = (TransportEvent.RequestFailed) await(
                e -> e instanceof TransportEvent.RequestFailed f && f.id().equals(id),
                Duration.ofSeconds(10), "the failure of " + id);
        return failed.error();
    }

    @SuppressWarnings("unchecked")
    <T extends TransportEvent> T await(Class<T> type, Duration timeout) {
        return (T) await(type::isInstance, timeout, "a " + type.getSimpleName() + " event");
    }

    synchronized TransportEvent await(Predicate<TransportEvent> wanted, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (TransportEvent event : events) {
                if (wanted.test(event)) {
                    return event;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return fail("waited " + timeout.toMillis() + " ms for " + what + "; got " + events);
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return fail("interrupted");
            }
        }
    }
}

package dev.mcpx.testkit.conformance;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** One 2025-11-25 session: the client's capabilities, its log level, and the streams and requests in flight. */
final class LegacySession {

    private static final long CLIENT_ANSWER_TIMEOUT_MS = 30_000;
    private static final int KEPT_STREAMS = 64;
    private static final long KEEP_ALIVE_MS = 10_000;

    private final String id = UUID.randomUUID().toString();
    private final ObjectNode clientCapabilities;
    private final ChangeFeed changes;
    private final AtomicInteger counter = new AtomicInteger();
    private final Map<String, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final Set<String> subscriptions = ConcurrentHashMap.newKeySet();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Map<String, ResumableStream> streams = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ResumableStream> eldest) {
            return size() > KEPT_STREAMS;
        }
    };
    private volatile LogLevel logLevel = LogLevel.DEBUG;

    LegacySession(ObjectNode clientCapabilities, ChangeFeed changes) {
        this.clientCapabilities = clientCapabilities;
        this.changes = changes;
    }

    String id() {
        return id;
    }

    ObjectNode clientCapabilities() {
        return clientCapabilities;
    }

    LogLevel logLevel() {
        return logLevel;
    }

    void setLogLevel(LogLevel level) {
        logLevel = level;
    }

    void subscribe(String uri) {
        subscriptions.add(uri);
    }

    void unsubscribe(String uri) {
        subscriptions.remove(uri);
    }

    ResumableStream openStream(SseWriter writer) throws IOException {
        ResumableStream stream = new ResumableStream("s" + counter.incrementAndGet(), writer);
        synchronized (streams) {
            streams.put(stream.id(), stream);
        }
        return stream;
    }

    ResumableStream stream(String streamId) {
        synchronized (streams) {
            return streams.get(streamId);
        }
    }

    /** Sends a server-to-client request on the exchange's stream and waits for the client's POSTed answer. */
    JsonNode ask(Exchange exchange, String method, JsonNode params) throws InterruptedException {
        String requestId = "mcpx-upstream-" + counter.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(requestId, answer);
        try {
            exchange.send(Json.request(requestId, method, params));
            JsonNode response = answer.get(CLIENT_ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            JsonNode error = response.get("error");
            if (error != null) {
                throw RpcError.of(RpcError.INTERNAL_ERROR,
                        "The client answered " + method + " with error " + Json.write(error)).exception();
            }
            return response.get("result");
        } catch (TimeoutException | ExecutionException | CancellationException noAnswer) {
            throw RpcError.of(RpcError.INTERNAL_ERROR, "The client did not answer " + method).exception();
        } finally {
            pending.remove(requestId);
        }
    }

    /** A JSON-RPC response the client POSTed; false when nothing waits for that id. */
    boolean answer(JsonNode response) {
        JsonNode id = response.get("id");
        CompletableFuture<JsonNode> waiting = id == null ? null : pending.get(id.asString());
        return waiting != null && waiting.complete(response);
    }

    /** Serves a GET stream: list changes and updates of subscribed resources, until the session or client ends. */
    void listen(SseWriter writer) throws InterruptedException {
        Consumer<Change> subscriber = change -> {
            ObjectNode notification = notificationFor(change);
            if (notification != null) {
                try {
                    writer.event(null, null, Json.write(notification));
                } catch (IOException clientLeft) {
                    // noticed by the keep-alive below
                }
            }
        };
        changes.subscribe(subscriber);
        try {
            while (!closed.await(KEEP_ALIVE_MS, TimeUnit.MILLISECONDS)) {
                writer.comment();
            }
        } catch (IOException clientLeft) {
            // the client closed the GET stream
        } finally {
            changes.unsubscribe(subscriber);
            writer.close();
        }
    }

    void close() {
        closed.countDown();
        pending.values().forEach(waiting -> waiting.cancel(false));
    }

    private ObjectNode notificationFor(Change change) {
        return switch (change.kind()) {
            case TOOLS_LIST -> Json.notification("notifications/tools/list_changed", null);
            case PROMPTS_LIST -> Json.notification("notifications/prompts/list_changed", null);
            case RESOURCES_LIST -> Json.notification("notifications/resources/list_changed", null);
            case RESOURCE_UPDATED -> subscriptions.contains(change.uri())
                    ? Json.notification("notifications/resources/updated", Json.object().put("uri", change.uri()))
                    : null;
        };
    }
}

package dev.mcpx.testkit.legacy;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/** One legacy session: its SSE streams (kept for replay) and its open server->client requests. */
final class FakeSession {

    private final String id;
    private final String protocolVersion;
    private final Map<String, EventLog> streams = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<JsonNode>> serverRequests = new ConcurrentHashMap<>();
    private final AtomicInteger streamCounter = new AtomicInteger();
    private final AtomicInteger serverRequestCounter = new AtomicInteger();
    private volatile EventLog listenStream;
    private final java.util.Set<String> subscriptions = ConcurrentHashMap.newKeySet();

    FakeSession(String id, String protocolVersion) {
        this.id = id;
        this.protocolVersion = protocolVersion;
    }

    String id() {
        return id;
    }

    String protocolVersion() {
        return protocolVersion;
    }

    EventLog newStream() {
        EventLog log = new EventLog("s" + streamCounter.incrementAndGet());
        streams.put(log.streamId(), log);
        return log;
    }

    EventLog stream(String streamId) {
        return streams.get(streamId);
    }

    /** The listen stream's log, created on the first GET; reconnects continue the same log. */
    synchronized EventLog listenStream() {
        if (listenStream == null) {
            listenStream = newStream();
        }
        return listenStream;
    }

    EventLog listenStreamIfOpen() {
        return listenStream;
    }

    /** The resource URIs this session subscribed to. */
    java.util.Set<String> subscriptions() {
        return subscriptions;
    }

    String nextServerRequestId() {
        return "srv-" + serverRequestCounter.incrementAndGet();
    }

    CompletableFuture<JsonNode> awaitResponse(String requestId) {
        return serverRequests.computeIfAbsent(requestId, k -> new CompletableFuture<>());
    }

    /** The client answered a server->client request; false when nothing waited for it. */
    boolean complete(String requestId, JsonNode response) {
        CompletableFuture<JsonNode> waiter = serverRequests.remove(requestId);
        return waiter != null && waiter.complete(response);
    }

    /** The session ended (deleted, forgotten, server stopped): every stream ends. */
    void end() {
        streams.values().forEach(EventLog::finish);
        serverRequests.values().forEach(f -> f.cancel(false));
    }
}

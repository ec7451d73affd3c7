package dev.mcpx.telemetry;

import dev.mcpx.protocol.Json;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the status page shows of each upstream beyond its counters: the last few recoveries host
 * calls got and the last failed call. Bounded: {@link #KEPT} recoveries per upstream.
 */
final class RecentEvents {

    static final int KEPT = 10;

    private record Upstream(Deque<ObjectNode> recoveries, ObjectNode[] lastError) {
    }

    private final Map<String, Upstream> upstreams = new ConcurrentHashMap<>();

    private Upstream of(String name) {
        return upstreams.computeIfAbsent(name, key -> new Upstream(new ArrayDeque<>(), new ObjectNode[1]));
    }

    void recovered(String upstream, String recovery, String method, String target) {
        ObjectNode event = Json.object().put("time", Instant.now().toString()).put("recovery", recovery)
                .put("method", method).put("target", target);
        Upstream recent = of(upstream);
        synchronized (recent) {
            recent.recoveries().addFirst(event);
            while (recent.recoveries().size() > KEPT) {
                recent.recoveries().removeLast();
            }
        }
    }

    void failed(String upstream, String method, String target, String errorType, String message) {
        Upstream recent = of(upstream);
        synchronized (recent) {
            recent.lastError()[0] = Json.object().put("time", Instant.now().toString()).put("method", method)
                    .put("target", target).put("errorType", errorType).put("message", message);
        }
    }

    /** Adds {@code recentRecoveries} (newest first) and, after a failure, {@code lastError} to a {@code /status} entry. */
    void describe(String upstream, ObjectNode entry) {
        Upstream recent = upstreams.get(upstream);
        ArrayNode recoveries = entry.putArray("recentRecoveries");
        if (recent == null) {
            return;
        }
        synchronized (recent) {
            recent.recoveries().forEach(event -> recoveries.add(event.deepCopy()));
            if (recent.lastError()[0] != null) {
                entry.set("lastError", recent.lastError()[0].deepCopy());
            }
        }
    }
}

package dev.mcpx.front.http;

import dev.mcpx.client.Cancellation;
import dev.mcpx.front.CallLimit;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** One legacy host's session: its version, its calls in flight, its GET listen stream. */
final class LegacySession {

    final String id;
    final ProtocolVersion version;
    final Map<RequestId, Cancellation> inFlight = new ConcurrentHashMap<>();
    final CallLimit calls = CallLimit.perHost();
    volatile SseStream listen;
    volatile boolean initialized;
    private volatile long lastUsedNanos = System.nanoTime();

    LegacySession(String id, ProtocolVersion version) {
        this.id = id;
        this.version = version;
    }

    void touch() {
        lastUsedNanos = System.nanoTime();
    }

    long lastUsedNanos() {
        return lastUsedNanos;
    }

    /** The host deleted the session: its calls are cancelled and its stream ended. */
    void end() {
        inFlight.values().forEach(cancellation -> cancellation.cancel("session deleted"));
        SseStream stream = listen;
        if (stream != null) {
            stream.finish();
        }
    }
}

package dev.mcpx.front.http;

import dev.mcpx.client.Cancellation;
import dev.mcpx.front.CallLimit;
import dev.mcpx.front.HostAsks;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** One legacy host's session: its version, its calls in flight, its GET listen stream. */
final class LegacySession {

    /** How long an upstream's sampling/elicitation/roots request waits for the host's answer. */
    static final Duration HOST_ANSWER_TIMEOUT = Duration.ofMinutes(5);

    final String id;
    final ProtocolVersion version;
    final Map<RequestId, Cancellation> inFlight = new ConcurrentHashMap<>();
    final CallLimit calls;
    volatile SseStream listen;
    volatile boolean initialized;
    /** Server->client requests passed to this host during its calls (set at initialize). */
    volatile HostAsks asks = new HostAsks(null, HOST_ANSWER_TIMEOUT);
    private volatile long lastUsedNanos = System.nanoTime();

    LegacySession(String id, ProtocolVersion version, CallLimit calls) {
        this.id = id;
        this.version = version;
        this.calls = calls;
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

package dev.mcpx.front.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import dev.mcpx.client.Cancellation;
import dev.mcpx.front.CallLimit;
import dev.mcpx.front.HostAsks;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.router.LogLevel;
import dev.mcpx.router.ResourceSubscriptions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** One legacy host's session: its version, its calls in flight, its GET listen stream, its resumable events. */
final class LegacySession {

    /** How long an upstream's sampling/elicitation/roots request waits for the host's answer. */
    static final Duration HOST_ANSWER_TIMEOUT = Duration.ofMinutes(5);

    final String id;
    /** Names the session in the audit log: the id itself lets whoever holds it use the session. */
    final String auditName;
    final ProtocolVersion version;
    final Map<RequestId, Cancellation> inFlight = new ConcurrentHashMap<>();
    final CallLimit calls;
    final ReplayStore replay;
    volatile SseStream listen;
    volatile boolean initialized;
    /** Server->client requests passed to this host during its calls (set at initialize). */
    volatile HostAsks asks = new HostAsks(null, HOST_ANSWER_TIMEOUT);
    /** The profile whose path created the session (null: {@code /mcp}'s own). */
    volatile String profile;
    /** The level the host set with logging/setLevel (null: none yet). */
    volatile LogLevel logLevel;
    /** The updates of resources this host subscribed to go on its GET stream (dropped while it has none). */
    final ResourceSubscriptions.Subscriber updates = params -> {
        SseStream stream = listen;
        if (initialized && stream != null) {
            stream.send(new Notification(Methods.RESOURCES_UPDATED, params));
        }
    };
    /**
     * The host's roots are to be asked for as soon as it has a GET stream to ask them on (it
     * initialized, or said they changed, while it had none).
     */
    volatile boolean rootsWanted;
    /** Runs when a new listen stream is the session's (set at initialize: asks for wanted roots). */
    volatile Runnable onListen = () -> { };
    private volatile long lastUsedNanos = System.nanoTime();
    /** When this replica created or took up the session: its duration is measured from here. */
    final long startedNanos = System.nanoTime();

    LegacySession(String id, ProtocolVersion version, CallLimit calls, ReplayStore replay) {
        this.id = id;
        this.auditName = auditName(id);
        this.version = version;
        this.calls = calls;
        this.replay = replay;
    }

    private static String auditName(String id) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            return "http-" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Tells the host on its GET stream, once it initialized (dropped while it has none, as its list changes are). */
    void notifyListening(Notification notice) {
        SseStream stream = listen;
        if (initialized && stream != null) {
            stream.send(notice);
        }
    }

    void touch() {
        lastUsedNanos = System.nanoTime();
    }

    long lastUsedNanos() {
        return lastUsedNanos;
    }

    /** The host deleted the session (or it expired): its calls are cancelled, its streams ended, its events dropped. */
    void end() {
        inFlight.values().forEach(cancellation -> cancellation.cancel("session deleted"));
        SseStream stream = listen;
        if (stream != null) {
            stream.finish();
        }
        replay.clear();
    }

    /** Nothing ties the session to a host right now: no call in flight, no connected listen stream. */
    boolean isIdle() {
        SseStream stream = listen;
        return inFlight.isEmpty() && (stream == null || !stream.isAttached());
    }
}

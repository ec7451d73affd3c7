package dev.mcpx.front.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import dev.mcpx.front.CallLimit;
import dev.mcpx.front.HostRequests;
import dev.mcpx.front.HostSession;
import dev.mcpx.protocol.ProtocolVersion;

/**
 * One legacy host's session as HTTP carries it: its id, its GET listen stream, its resumable
 * events; what its messages mean is its {@link HostSession}'s, as for a stdio host.
 */
final class LegacySession {

    final String id;
    /** Names the session in the audit log: the id itself lets whoever holds it use the session. */
    final String auditName;
    final ProtocolVersion version;
    final ReplayStore replay;
    /** The profile whose path created the session (null: {@code /mcp}'s own). */
    final String profile;
    /** The host's session; outside its calls it hears mcpx on the GET stream (nothing while it has none). */
    final HostSession host;
    volatile SseStream listen;
    private volatile long lastUsedNanos = System.nanoTime();

    /** {@code requests}: the gateway as {@code profile} shows it; {@code replicas}: where the session is stored. */
    LegacySession(String id, ProtocolVersion version, String profile, CallLimit calls, ReplayStore replay,
                  HostRequests requests, HostSession.Replicas replicas) {
        this.id = id;
        this.auditName = auditName(id);
        this.version = version;
        this.profile = profile;
        this.replay = replay;
        this.host = new HostSession(requests, auditName, calls, message -> {
            SseStream stream = listen;
            return stream != null && stream.send(message);
        }, replicas, version.wire());
    }

    private static String auditName(String id) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            return "http-" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
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
        host.end("session deleted");
        SseStream stream = listen;
        if (stream != null) {
            stream.finish();
        }
        replay.clear();
    }

    /** Nothing ties the session to a host right now: no call in flight, no connected listen stream. */
    boolean isIdle() {
        SseStream stream = listen;
        return host.idle() && (stream == null || !stream.isAttached());
    }
}

package dev.mcpx.front.http;

import dev.mcpx.front.FrontLimits;
import dev.mcpx.protocol.ProtocolVersion;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The legacy sessions mcpx minted, by id. Ids are 128 random bits: unguessable, visible ASCII.
 * Hosts often leave without DELETE, so a session idle for {@code idleLimit} (no request, no
 * connected listen stream, no call in flight) is forgotten, with its kept events, when the next
 * one is created or at the next {@link #sweep}.
 */
final class LegacySessions {

    private final SecureRandom random = new SecureRandom();
    private final Map<String, LegacySession> byId = new ConcurrentHashMap<>();
    private final Duration idleLimit;
    private final FrontLimits limits;
    private final SseSettings sse;
    private final ReplayCounters counters;
    /** Front-wide, so an event id names one stream of one session. */
    private final AtomicLong streamNumbers = new AtomicLong();
    private final Consumer<LegacySession> ended;

    /** {@code ended}: told of each session that is gone (deleted or forgotten), to release what it held. */
    LegacySessions(Duration idleLimit, FrontLimits limits, SseSettings sse, ReplayCounters counters,
                   Consumer<LegacySession> ended) {
        this.idleLimit = idleLimit;
        this.limits = limits;
        this.sse = sse;
        this.counters = counters;
        this.ended = ended;
    }

    LegacySession create(ProtocolVersion version) {
        forgetIdle();
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        LegacySession session = new LegacySession(HexFormat.of().formatHex(bytes), version, limits.callLimit(),
                new ReplayStore(streamNumbers, sse, counters));
        byId.put(session.id, session);
        return session;
    }

    LegacySession get(String id) {
        LegacySession session = byId.get(id);
        if (session != null) {
            session.touch();
        }
        return session;
    }

    private void forgetIdle() {
        long now = System.nanoTime();
        for (LegacySession session : byId.values()) {
            if (session.isIdle() && now - session.lastUsedNanos() > idleLimit.toNanos() && byId.remove(session.id, session)) {
                session.end();
                ended.accept(session);
            }
        }
    }

    /** Forgets idle sessions and drops the streams nobody resumed within the grace period. */
    void sweep() {
        forgetIdle();
        long now = System.nanoTime();
        byId.values().forEach(session -> session.replay.sweep(now));
    }

    LegacySession remove(String id) {
        LegacySession session = byId.remove(id);
        if (session != null) {
            ended.accept(session);
        }
        return session;
    }

    Collection<LegacySession> all() {
        return byId.values();
    }
}

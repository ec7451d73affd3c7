package dev.mcpx.front.http;

import dev.mcpx.front.FrontLimits;
import dev.mcpx.protocol.ProtocolVersion;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The legacy sessions mcpx minted, by id. Ids are 128 random bits: unguessable, visible ASCII.
 * Hosts often leave without DELETE, so a session idle for {@code idleLimit} (no request, no
 * listen stream, no call in flight) is forgotten when the next one is created.
 */
final class LegacySessions {

    private final SecureRandom random = new SecureRandom();
    private final Map<String, LegacySession> byId = new ConcurrentHashMap<>();
    private final Duration idleLimit;
    private final FrontLimits limits;

    LegacySessions(Duration idleLimit, FrontLimits limits) {
        this.idleLimit = idleLimit;
        this.limits = limits;
    }

    LegacySession create(ProtocolVersion version) {
        forgetIdle();
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        LegacySession session = new LegacySession(HexFormat.of().formatHex(bytes), version, limits.callLimit());
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
        byId.values().removeIf(session -> session.listen == null && session.inFlight.isEmpty()
                && now - session.lastUsedNanos() > idleLimit.toNanos());
    }

    LegacySession remove(String id) {
        return byId.remove(id);
    }

    Collection<LegacySession> all() {
        return byId.values();
    }
}

package dev.mcpx.front.http;

import dev.mcpx.protocol.ProtocolVersion;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The legacy sessions mcpx minted, by id. Ids are 128 random bits: unguessable, visible ASCII.
 * Hosts often leave without DELETE, so a session idle for {@code idleLimit} (no request, no
 * listen stream, no call in flight) is forgotten when the next one is created.
 */
final class LegacySessions {

    private final SecureRandom random = new SecureRandom();
    private final Map<String, LegacySession> byId = new ConcurrentHashMap<>();
    private final Duration idleLimit;
    private final Consumer<LegacySession> ended;

    /** {@code ended}: told of each session that is gone (deleted or forgotten), to release what it held. */
    LegacySessions(Duration idleLimit, Consumer<LegacySession> ended) {
        this.idleLimit = idleLimit;
        this.ended = ended;
    }

    LegacySession create(ProtocolVersion version) {
        forgetIdle();
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        LegacySession session = new LegacySession(HexFormat.of().formatHex(bytes), version);
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
            if (session.listen == null && session.inFlight.isEmpty() && now - session.lastUsedNanos() > idleLimit.toNanos()
                    && byId.remove(session.id, session)) {
                ended.accept(session);
            }
        }
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

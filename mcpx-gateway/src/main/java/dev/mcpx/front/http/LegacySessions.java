package dev.mcpx.front.http;

import dev.mcpx.protocol.ProtocolVersion;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The legacy sessions mcpx minted, by id. Ids are 128 random bits: unguessable, visible ASCII. */
final class LegacySessions {

    private final SecureRandom random = new SecureRandom();
    private final Map<String, LegacySession> byId = new ConcurrentHashMap<>();

    LegacySession create(ProtocolVersion version) {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        LegacySession session = new LegacySession(HexFormat.of().formatHex(bytes), version);
        byId.put(session.id, session);
        return session;
    }

    LegacySession get(String id) {
        return byId.get(id);
    }

    LegacySession remove(String id) {
        return byId.remove(id);
    }

    Collection<LegacySession> all() {
        return byId.values();
    }
}

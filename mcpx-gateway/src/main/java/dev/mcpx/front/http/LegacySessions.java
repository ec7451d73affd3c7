package dev.mcpx.front.http;

import dev.mcpx.front.FrontLimits;
import dev.mcpx.front.HostAsks;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.router.LogLevel;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * The legacy sessions this replica serves, by id. Ids are 128 random bits: unguessable, visible
 * ASCII. The {@link HostSessionStore} says which sessions exist: every use asks it (pushing the
 * session's expiry back), and a session it knows that this replica has not seen yet is taken up
 * here (another replica created it). Hosts often leave without DELETE, so a session idle here for
 * {@code idleLimit} (no request, no connected listen stream, no call in flight) is forgotten, with
 * its kept events, when the next one is created or at the next {@link #sweep}.
 */
final class LegacySessions {

    private final SecureRandom random = new SecureRandom();
    private final Map<String, LegacySession> byId = new ConcurrentHashMap<>();
    private final Duration idleLimit;
    private final FrontLimits limits;
    private final SseSettings sse;
    private final ReplayCounters counters;
    private final HostSessionStore store;
    private final SharedStreams shared;
    /** Front-wide, so an event id names one stream of one session. */
    private final AtomicLong streamNumbers = new AtomicLong();
    private final Consumer<LegacySession> ended;
    private volatile BiConsumer<LegacySession, SharedSession> takenUp = (session, shared) -> { };

    /** {@code ended}: told of each session that is gone here (deleted, expired or forgotten), to release what it held. */
    LegacySessions(Duration idleLimit, FrontLimits limits, SseSettings sse, ReplayCounters counters,
                   HostSessionStore store, SharedStreams shared, Consumer<LegacySession> ended) {
        this.idleLimit = idleLimit;
        this.limits = limits;
        this.sse = sse;
        this.counters = counters;
        this.store = store;
        this.shared = shared;
        this.ended = ended;
        store.onRemovedElsewhere(this::drop);
    }

    /** {@code prepare} readies a session another replica created (as stored), as initialize readies a new one. */
    void onTakenUp(BiConsumer<LegacySession, SharedSession> prepare) {
        this.takenUp = prepare;
    }

    LegacySession create(ProtocolVersion version, String profile, ObjectNode capabilities) {
        forgetIdle();
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        LegacySession session = local(HexFormat.of().formatHex(bytes), version, profile, capabilities);
        // stored first: a store that fails leaves no session behind here
        store.create(shared(session));
        byId.put(session.id, session);
        return session;
    }

    private LegacySession local(String id, ProtocolVersion version, String profile, ObjectNode capabilities) {
        LegacySession session = new LegacySession(id, version, limits.callLimit(), new ReplayStore(streamNumbers, sse, counters, id, shared));
        session.profile = profile;
        session.asks = new HostAsks(capabilities, LegacySession.HOST_ANSWER_TIMEOUT);
        return session;
    }

    /** The session, or null when the store no longer has it (deleted on any replica, or expired). */
    LegacySession get(String id) {
        Optional<SharedSession> stored = store.touch(id);
        if (stored.isEmpty()) {
            drop(id);
            return null;
        }
        SharedSession shared = stored.get();
        LegacySession session = byId.get(id);
        if (session == null) {
            LegacySession fresh = takeUp(shared);
            session = byId.putIfAbsent(id, fresh);
            if (session == null) {
                session = fresh;
                // outside the map's lock: preparing may ask an upstream (subscriptions)
                takenUp.accept(fresh, shared);
            }
        }
        session.logLevel = shared.logLevel();
        session.initialized |= shared.initialized();
        session.touch();
        return session;
    }

    private LegacySession takeUp(SharedSession shared) {
        LegacySession session = local(shared.id(), shared.version(), shared.profile(), shared.capabilities());
        session.initialized = shared.initialized();
        session.logLevel = shared.logLevel();
        // its roots were asked for where it initialized: ask again once it listens here
        session.rootsWanted = shared.initialized();
        return session;
    }

    /** The session's host sent {@code initialized}: every replica is to know. */
    void initialized(LegacySession session) {
        store.initialized(session.id);
        session.initialized = true;
    }

    /** The session's host set its log level: stored first, so a concurrent request cannot put the old one back. */
    void logLevel(LegacySession session, LogLevel level) {
        store.logLevel(session.id, level);
        session.logLevel = level;
    }

    /** The session's host subscribed to the resource {@code uri}, or unsubscribed: for replicas that take it up later. */
    void subscription(LegacySession session, String uri, boolean subscribed) {
        store.subscription(session.id, uri, subscribed);
    }

    private static SharedSession shared(LegacySession session) {
        return new SharedSession(session.id, session.version, session.profile, session.asks.capabilities(),
                session.logLevel, session.initialized, java.util.Set.of());
    }

    private void forgetIdle() {
        long now = System.nanoTime();
        for (LegacySession session : byId.values()) {
            if (session.isIdle() && now - session.lastUsedNanos() > idleLimit.toNanos() && byId.remove(session.id, session)) {
                store.forgotIdle(session.id);
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

    /** Ends the session on every replica; returns this replica's copy (null if it had none). */
    LegacySession remove(String id) {
        store.remove(id);
        LegacySession session = byId.remove(id);
        if (session != null) {
            ended.accept(session);
        }
        return session;
    }

    /** Another replica ended it, or the store let it expire: its calls here are cancelled, its streams ended. */
    private void drop(String id) {
        LegacySession session = byId.remove(id);
        if (session != null) {
            session.end();
            ended.accept(session);
        }
    }

    /** This replica's copy of the session, if it has one; the store is not asked. */
    LegacySession here(String id) {
        return byId.get(id);
    }

    Collection<LegacySession> all() {
        return byId.values();
    }
}

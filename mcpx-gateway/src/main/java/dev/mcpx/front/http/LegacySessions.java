package dev.mcpx.front.http;

import dev.mcpx.front.FrontLimits;
import dev.mcpx.front.HostRequests;
import dev.mcpx.front.HostSession;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.router.LogLevel;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
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
    private final HostRequests requests;
    private volatile BiConsumer<LegacySession, SharedSession> takenUp = (session, shared) -> { };

    /** {@code requests}: the gateway the sessions' hosts are served, each as its session's profile shows it. */
    LegacySessions(Duration idleLimit, FrontLimits limits, SseSettings sse, ReplayCounters counters,
                   HostSessionStore store, SharedStreams shared, HostRequests requests) {
        this.idleLimit = idleLimit;
        this.limits = limits;
        this.sse = sse;
        this.counters = counters;
        this.store = store;
        this.shared = shared;
        this.requests = requests;
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
        store.create(new SharedSession(session.id, version, profile, capabilities, null, false, Set.of()));
        byId.put(session.id, session);
        return session;
    }

    private LegacySession local(String id, ProtocolVersion version, String profile, ObjectNode capabilities) {
        HostSession.Replicas replicas = new HostSession.Replicas() {
            @Override
            public void initialized() {
                store.initialized(id);
            }

            @Override
            public void logLevel(LogLevel level) {
                store.logLevel(id, level);
            }
        };
        LegacySession session = new LegacySession(id, version, profile, limits.callLimit(),
                new ReplayStore(streamNumbers, sse, counters, id, shared), requests.forProfile(profile), replicas);
        session.host.declared(capabilities);
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
        session.host.stored(shared.logLevel(), shared.initialized());
        session.touch();
        return session;
    }

    private LegacySession takeUp(SharedSession shared) {
        LegacySession session = local(shared.id(), shared.version(), shared.profile(), shared.capabilities());
        session.host.stored(shared.logLevel(), shared.initialized());
        session.host.takenUp();
        return session;
    }

    /** The session's host subscribed to the resource {@code uri}, or unsubscribed: for replicas that take it up later. */
    void subscription(LegacySession session, String uri, boolean subscribed) {
        store.subscription(session.id, uri, subscribed);
    }

    private void forgetIdle() {
        long now = System.nanoTime();
        for (LegacySession session : byId.values()) {
            if (session.isIdle() && now - session.lastUsedNanos() > idleLimit.toNanos() && byId.remove(session.id, session)) {
                store.forgotIdle(session.id);
                session.end();
            }
        }
    }

    /** Forgets idle sessions and drops the streams nobody resumed within the grace period. */
    void sweep() {
        forgetIdle();
        long now = System.nanoTime();
        byId.values().forEach(session -> session.replay.sweep(now));
    }

    /** Ends the session on every replica and here; returns this replica's copy (null if it had none). */
    LegacySession remove(String id) {
        store.remove(id);
        LegacySession session = byId.remove(id);
        if (session != null) {
            session.end();
        }
        return session;
    }

    /** Another replica ended it, or the store let it expire: its calls here are cancelled, its streams ended. */
    private void drop(String id) {
        LegacySession session = byId.remove(id);
        if (session != null) {
            session.end();
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

package dev.mcpx.client;

import dev.mcpx.client.TransportOpener.Wire;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * What era detection found for each HTTP endpoint, shared by the clients of a process, so a
 * second client to the same endpoint (two gateway entries for one URL, a client reconnecting
 * after an upstream restart) skips the probe while the answer is fresh. The spec asks for this
 * (2026-07-28, versioning, backward compatibility: cache the era per origin, re-probe if the
 * cached assumption later fails); {@link McpClient} does the re-probing.
 *
 * <p>Keyed by scheme, host, port, path and query, not by origin alone: one origin may host
 * several MCP endpoints of different eras (a multiplexing proxy, {@code /mcp} next to
 * {@code /sse}), and a key that is too fine only costs a probe, one too coarse a wrong-era
 * attempt. User info and fragment are left out. Only HTTP is cached: a stdio child is a new
 * process on every start and is probed every time.
 *
 * <p>A modern entry also keeps the {@code server/discover} result when the upstream marked it
 * {@code cacheScope: "public"} with a {@code ttlMs}, for no longer than that ttl, so a modern
 * reconnect needs no request at all; otherwise the reconnect still sends {@code server/discover}
 * to learn the capabilities.
 */
public final class EraCache {

    /** How long an era answer is trusted when nobody said otherwise. */
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(30);

    /**
     * The system property that sets the process default's ttl (an ISO-8601 duration such as
     * {@code PT5M}; {@code PT0S} turns sharing off). The build's test runs set it to zero: their
     * fakes listen on ephemeral ports the OS hands out again, and one test's answer must not
     * leak into the next (tests of the cache give it a cache of its own).
     */
    public static final String TTL_PROPERTY = "mcpx.eraCache.ttl";

    private static final EraCache SHARED = new EraCache(configuredTtl(), Clock.systemUTC());

    private final Duration ttl;
    private final Clock clock;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final Map<String, ReentrantLock> probing = new ConcurrentHashMap<>();

    private EraCache(Duration ttl, Clock clock) {
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must not be negative: " + ttl);
        }
        this.ttl = ttl;
        this.clock = clock;
    }

    /** The process default, used by every {@link McpClient.Builder} not given another one. */
    public static EraCache shared() {
        return SHARED;
    }

    /** A cache of its own, entries trusted for {@code ttl} (zero: nothing is ever reused). */
    public static EraCache create(Duration ttl) {
        return new EraCache(ttl, Clock.systemUTC());
    }

    static EraCache create(Duration ttl, Clock clock) {
        return new EraCache(ttl, clock);
    }

    /** How many endpoints have a fresh answer. */
    public int size() {
        Instant now = clock.instant();
        entries.values().removeIf(entry -> !entry.expiresAt().isAfter(now));
        return entries.size();
    }

    public void clear() {
        entries.clear();
    }

    /**
     * Runs {@code probe} for {@code endpoint} with no other client of this cache probing it at the
     * same time: two clients connecting at once to one URL (two gateway entries) probe once, the
     * second finding the first's answer.
     */
    <T> T probingAlone(UpstreamEndpoint.Http endpoint, Supplier<T> probe) {
        ReentrantLock lock = probing.computeIfAbsent(keyOf(endpoint.url()), key -> new ReentrantLock());
        lock.lock();
        try {
            return probe.get();
        } finally {
            lock.unlock();
        }
    }

    /** The fresh answer for {@code endpoint}, or null: the caller probes. */
    Entry lookup(UpstreamEndpoint.Http endpoint) {
        String key = keyOf(endpoint.url());
        Entry entry = entries.get(key);
        if (entry == null) {
            return null;
        }
        Instant now = clock.instant();
        if (!entry.expiresAt().isAfter(now)) {
            entries.remove(key, entry);
            return null;
        }
        return entry.discoveryExpiresAt() != null && !entry.discoveryExpiresAt().isAfter(now)
                ? entry.withoutDiscovery() : entry;
    }

    /**
     * Remembers the wire the probe found; {@code discovery}, the modern {@code server/discover}
     * answer, is kept only for {@code discoveryTtl} (null: not shareable).
     */
    void remember(UpstreamEndpoint.Http endpoint, Wire wire, ServerDescription discovery, Duration discoveryTtl) {
        if (ttl.isZero()) {
            return;
        }
        Instant now = clock.instant();
        Instant expiresAt = now.plus(ttl);
        boolean keepDiscovery = wire == Wire.MODERN_HTTP && discovery != null && discoveryTtl != null
                && discoveryTtl.isPositive();
        Instant discoveryExpiresAt = keepDiscovery ? now.plus(discoveryTtl.compareTo(ttl) < 0 ? discoveryTtl : ttl) : null;
        entries.put(keyOf(endpoint.url()), new Entry(wire, keepDiscovery ? discovery : null, discoveryExpiresAt, expiresAt));
    }

    /** Drops the answer for {@code endpoint}: it proved wrong. */
    void forget(UpstreamEndpoint.Http endpoint) {
        entries.remove(keyOf(endpoint.url()));
    }

    private static Duration configuredTtl() {
        String configured = System.getProperty(TTL_PROPERTY);
        if (configured == null || configured.isBlank()) {
            return DEFAULT_TTL;
        }
        try {
            Duration ttl = Duration.parse(configured.strip());
            return ttl.isNegative() ? DEFAULT_TTL : ttl;
        } catch (DateTimeParseException e) {
            return DEFAULT_TTL;
        }
    }

    static String keyOf(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        String host = url.getHost() == null ? "" : url.getHost().toLowerCase(Locale.ROOT);
        int port = url.getPort() >= 0 ? url.getPort() : "https".equals(scheme) ? 443 : "http".equals(scheme) ? 80 : -1;
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String query = url.getRawQuery() == null ? "" : "?" + url.getRawQuery();
        return scheme + "://" + host + ":" + port + path + query;
    }

    /** One endpoint's answer: its wire, and for a modern one the shareable discovery, if any. */
    record Entry(Wire wire, ServerDescription discovery, Instant discoveryExpiresAt, Instant expiresAt) {

        Entry withoutDiscovery() {
            return new Entry(wire, null, null, expiresAt);
        }
    }
}

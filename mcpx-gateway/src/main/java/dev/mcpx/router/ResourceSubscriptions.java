package dev.mcpx.router;

import dev.mcpx.catalogue.Route;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.pool.Pool;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Which host subscribed to which resource, and the upstream subscriptions that serve them: the
 * first host to want a resource subscribes its upstream, the last to let go unsubscribes it, and
 * each {@code notifications/resources/updated} goes to exactly the hosts subscribed to that URI.
 */
public final class ResourceSubscriptions {

    private static final Logger LOG = LoggerFactory.getLogger(ResourceSubscriptions.class);

    /** Where a host's updates go: one legacy session, one modern listen stream, one stdio host. */
    @FunctionalInterface
    public interface Subscriber {
        /** {@code params}: the update's params ({@code uri}, and any other field but the upstream's subscription id). */
        void updated(ObjectNode params);
    }

    private record Key(String upstream, String uri) {
    }

    /** The hosts of one (upstream, URI); its lock spans the upstream call, so hosts never race it. */
    private static final class Entry {
        final ReentrantLock lock = new ReentrantLock();
        final Set<Subscriber> hosts = ConcurrentHashMap.newKeySet();
    }

    private final Router router;
    private final Pool pool;
    private final Map<Key, Entry> entries = new ConcurrentHashMap<>();
    private final Map<Subscriber, Set<Key>> byHost = new ConcurrentHashMap<>();

    public ResourceSubscriptions(Router router, Pool pool) {
        this.router = router;
        this.pool = pool;
        pool.onResourceUpdated(this::upstreamUpdated);
    }

    /**
     * Subscribes {@code host} to {@code uri}; returns once the upstream serves it (at once when
     * another host already made it do so).
     *
     * @throws McpException unknown URI, an upstream without subscriptions, or the upstream's failure
     */
    public void subscribe(Subscriber host, String uri) {
        Route route = router.resourceRoute(uri);
        Key key = new Key(route.upstream(), route.upstreamName());
        while (true) {
            Entry entry = entries.computeIfAbsent(key, k -> new Entry());
            entry.lock.lock();
            try {
                if (entries.get(key) != entry) {
                    continue;
                }
                if (entry.hosts.contains(host)) {
                    return;
                }
                if (entry.hosts.isEmpty()) {
                    try {
                        pool.require(key.upstream()).subscribeResource(key.uri(), RequestOptions.defaults());
                    } catch (RuntimeException e) {
                        entries.remove(key, entry);
                        throw e;
                    }
                }
                entry.hosts.add(host);
                byHost.computeIfAbsent(host, h -> ConcurrentHashMap.newKeySet()).add(key);
                return;
            } finally {
                entry.lock.unlock();
            }
        }
    }

    /**
     * Ends {@code host}'s subscription to {@code uri}; a URI the host never subscribed to is a
     * no-op when it exists.
     *
     * @throws McpException the URI is unknown
     */
    public void unsubscribe(Subscriber host, String uri) {
        List<Key> held = keysOf(host).stream().filter(key -> key.uri().equals(uri)).toList();
        if (held.isEmpty()) {
            router.resourceRoute(uri);
            return;
        }
        held.forEach(key -> release(host, key));
    }

    /**
     * The host went away (session deleted or expired, stream closed): all its subscriptions end.
     * Returns at once: nobody waits for the upstreams to let go (a new host's initialize may be
     * what noticed an expired session).
     */
    public void release(Subscriber host) {
        Set<Key> keys = keysOf(host);
        byHost.remove(host);
        if (!keys.isEmpty()) {
            Thread.ofVirtual().name("mcpx-release-subscriptions").start(() -> keys.forEach(key -> release(host, key)));
        }
    }

    /** Whether some upstream can serve subscriptions now: what the gateway advertises to hosts. */
    public boolean available() {
        return pool.upstreams().stream().anyMatch(upstream -> upstream.offersSubscriptions());
    }

    private Set<Key> keysOf(Subscriber host) {
        Set<Key> keys = byHost.get(host);
        return keys == null ? Set.of() : Set.copyOf(keys);
    }

    private void release(Subscriber host, Key key) {
        Set<Key> keys = byHost.get(host);
        if (keys != null) {
            keys.remove(key);
        }
        Entry entry = entries.get(key);
        if (entry == null) {
            return;
        }
        entry.lock.lock();
        try {
            if (!entry.hosts.remove(host) || !entry.hosts.isEmpty()) {
                return;
            }
            entries.remove(key, entry);
            pool.upstream(key.upstream()).ifPresent(upstream -> upstream.unsubscribeResource(key.uri()));
        } catch (McpException e) {
            LOG.info("{}: unsubscribing from {} failed: {}", key.upstream(), key.uri(), e.getMessage());
        } finally {
            entry.lock.unlock();
        }
    }

    private void upstreamUpdated(String upstream, ObjectNode params) {
        String uri = Json.text(params, "uri");
        Entry entry = uri == null ? null : entries.get(new Key(upstream, uri));
        if (entry == null) {
            LOG.debug("{}: update of {} that no host subscribed to", upstream, uri);
            return;
        }
        for (Subscriber host : entry.hosts) {
            try {
                host.updated(forHost(params));
            } catch (RuntimeException e) {
                LOG.debug("a host could not be told that {} changed: {}", uri, e.toString());
            }
        }
    }

    /** The update without the upstream's subscription id: each host's stream has its own. */
    private static ObjectNode forHost(ObjectNode params) {
        ObjectNode copy = params.deepCopy();
        ObjectNode meta = Json.objectAt(copy, MetaKeys.META);
        if (meta != null) {
            meta.remove(MetaKeys.SUBSCRIPTION_ID);
            if (meta.isEmpty()) {
                copy.remove(MetaKeys.META);
            }
        }
        return copy;
    }
}

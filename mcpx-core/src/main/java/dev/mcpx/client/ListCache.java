package dev.mcpx.client;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * The upstream's last list results, by list method. An entry lives until invalidated
 * ({@code list_changed}, re-initialize) or, when the upstream gave a {@code ttlMs}, until it
 * expires.
 */
final class ListCache {

    private record Entry(List<ObjectNode> items, long expiresAtNanos) {
    }

    private final Map<String, Entry> entries = new HashMap<>();

    synchronized List<ObjectNode> get(String method) {
        Entry entry = entries.get(method);
        if (entry == null) {
            return null;
        }
        if (entry.expiresAtNanos != Long.MAX_VALUE && System.nanoTime() - entry.expiresAtNanos > 0) {
            entries.remove(method);
            return null;
        }
        return entry.items;
    }

    /** @param ttlMs the upstream's {@code ttlMs}, or a negative value for "until invalidated" */
    synchronized void put(String method, List<ObjectNode> items, long ttlMs) {
        long expires = ttlMs < 0 ? Long.MAX_VALUE : System.nanoTime() + ttlMs * 1_000_000L;
        entries.put(method, new Entry(List.copyOf(items), expires));
    }

    /** Whether a list is held and its {@code ttlMs} has run out (one never fetched, or invalidated, is not). */
    synchronized boolean expired(String method) {
        Entry entry = entries.get(method);
        return entry != null && entry.expiresAtNanos != Long.MAX_VALUE && System.nanoTime() - entry.expiresAtNanos > 0;
    }

    synchronized void invalidate(String method) {
        entries.remove(method);
    }
}

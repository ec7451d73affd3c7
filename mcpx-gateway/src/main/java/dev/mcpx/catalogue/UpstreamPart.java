package dev.mcpx.catalogue;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** What one upstream contributes: its prefix, what hosts may see of it, and its latest lists as it sent them. */
record UpstreamPart(String upstream, String prefix, CatalogueFilter filter, Map<ListKind, List<ObjectNode>> lists) {

    UpstreamPart {
        lists = lists.isEmpty() ? new EnumMap<>(ListKind.class) : new EnumMap<>(lists);
    }

    static UpstreamPart empty(String upstream, String prefix, CatalogueFilter filter) {
        return new UpstreamPart(upstream, prefix, filter, Map.of());
    }

    List<ObjectNode> items(ListKind kind) {
        return lists.getOrDefault(kind, List.of());
    }

    UpstreamPart with(ListKind kind, List<ObjectNode> items) {
        Map<ListKind, List<ObjectNode>> copy = new EnumMap<>(ListKind.class);
        copy.putAll(lists);
        copy.put(kind, List.copyOf(items));
        return new UpstreamPart(upstream, prefix, filter, copy);
    }

    UpstreamPart filtered(CatalogueFilter next) {
        return new UpstreamPart(upstream, prefix, next, lists);
    }
}

package dev.mcpx.catalogue;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** What one upstream contributes: its prefix and its latest lists, as it sent them. */
record UpstreamPart(String upstream, String prefix, Map<ListKind, List<ObjectNode>> lists) {

    UpstreamPart {
        lists = lists.isEmpty() ? new EnumMap<>(ListKind.class) : new EnumMap<>(lists);
    }

    static UpstreamPart empty(String upstream, String prefix) {
        return new UpstreamPart(upstream, prefix, Map.of());
    }

    List<ObjectNode> items(ListKind kind) {
        return lists.getOrDefault(kind, List.of());
    }

    UpstreamPart with(ListKind kind, List<ObjectNode> items) {
        Map<ListKind, List<ObjectNode>> copy = new EnumMap<>(ListKind.class);
        copy.putAll(lists);
        copy.put(kind, List.copyOf(items));
        return new UpstreamPart(upstream, prefix, copy);
    }
}

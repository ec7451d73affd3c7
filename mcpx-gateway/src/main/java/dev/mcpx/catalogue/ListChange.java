package dev.mcpx.catalogue;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which lists changed for the hosts of each profile ({@code ""}: those of {@code /mcp}), so a
 * host is told only of a change it can see.
 */
public record ListChange(Map<String, Set<ListKind>> byProfile) {

    public ListChange {
        Map<String, Set<ListKind>> copy = new HashMap<>();
        byProfile.forEach((profile, kinds) -> {
            if (!kinds.isEmpty()) {
                copy.put(profile, Set.copyOf(kinds));
            }
        });
        byProfile = Map.copyOf(copy);
    }

    /** What changed for the hosts of {@code profile} (null or empty: the default one). */
    public Set<ListKind> of(String profile) {
        return byProfile.getOrDefault(profile == null ? "" : profile, Set.of());
    }

    /** What changed for anyone. */
    public Set<ListKind> kinds() {
        Set<ListKind> all = EnumSet.noneOf(ListKind.class);
        byProfile.values().forEach(all::addAll);
        return all;
    }

    public boolean isEmpty() {
        return byProfile.isEmpty();
    }
}

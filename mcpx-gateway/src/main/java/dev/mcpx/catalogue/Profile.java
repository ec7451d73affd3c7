package dev.mcpx.catalogue;

import java.util.List;

/**
 * A named subset of the catalogue that some hosts get instead of the whole: the upstreams it
 * takes ({@code servers}, empty for all), a filter over the names hosts see ({@code prefix__name}
 * for tools and prompts, URIs for resources), and whether it is served in search mode.
 */
public record Profile(String name, List<String> servers, CatalogueFilter filter, Search search) {

    /** What {@code /mcp} and a plain {@code serve --stdio} serve when the config names no search mode. */
    public static final Profile WHOLE = new Profile("", List.of(), CatalogueFilter.NONE, Search.OFF);

    public Profile {
        servers = List.copyOf(servers);
    }

    /** True for the unnamed profile of {@code /mcp}. */
    public boolean isDefault() {
        return name.isEmpty();
    }

    /** True when this profile shows hosts everything the merged catalogue has. */
    public boolean whole() {
        return servers.isEmpty() && filter.equals(CatalogueFilter.NONE);
    }

    boolean admits(ListKind kind, String key, String upstream) {
        return takes(upstream) && filter.admits(kind, key);
    }

    /** True when the profile takes upstream {@code upstream} (its names may still be filtered). */
    public boolean takes(String upstream) {
        return servers.isEmpty() || servers.contains(upstream);
    }

    /**
     * Search mode: hosts are listed the meta-tools and the {@code pin}ned tools (globs over the
     * names hosts see) and find the rest by searching.
     */
    public record Search(boolean enabled, List<String> pin) {

        public static final Search OFF = new Search(false, List.of());

        public Search {
            pin = List.copyOf(pin);
        }

        public boolean pins(String exposedName) {
            return pin.stream().anyMatch(glob -> NameFilter.matches(glob, exposedName));
        }
    }
}

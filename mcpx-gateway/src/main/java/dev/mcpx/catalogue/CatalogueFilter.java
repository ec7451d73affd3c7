package dev.mcpx.catalogue;

/**
 * What of one upstream's catalogue hosts get: its tools and prompts by name, its resources and
 * resource templates by URI (a template by its {@code uriTemplate}). A name filtered out is
 * neither listed nor routed, so calling it is refused as unknown.
 */
public record CatalogueFilter(NameFilter tools, NameFilter prompts, NameFilter resources) {

    public static final CatalogueFilter NONE = new CatalogueFilter(NameFilter.ALL, NameFilter.ALL, NameFilter.ALL);

    boolean admits(ListKind kind, String key) {
        return switch (kind) {
            case TOOLS -> tools.admits(key);
            case PROMPTS -> prompts.admits(key);
            case RESOURCES, RESOURCE_TEMPLATES -> resources.admits(key);
        };
    }
}

package dev.mcpx.catalogue;

import dev.mcpx.protocol.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The catalogue as the hosts of one profile see it, at one moment: its lists hold only what the
 * profile admits, and its lookups find nothing else, so a name outside it is an unknown name.
 */
public final class HostView {

    private final CatalogueView view;
    private final Profile profile;

    HostView(CatalogueView view, Profile profile) {
        this.view = view;
        this.profile = profile;
    }

    public Profile profile() {
        return profile;
    }

    public List<ObjectNode> list(ListKind kind) {
        List<ObjectNode> all = view.lists().get(kind);
        if (profile.whole()) {
            return all;
        }
        return all.stream().filter(item -> admitted(kind, item)).toList();
    }

    public Catalogue.Page page(ListKind kind, String cursor, int pageSize) {
        return Catalogue.page(list(kind), cursor, pageSize);
    }

    public Optional<Route> tool(String exposedName) {
        return admitted(ListKind.TOOLS, exposedName, exposedName == null ? null : view.tools().get(exposedName));
    }

    public Optional<Route> prompt(String exposedName) {
        return admitted(ListKind.PROMPTS, exposedName, exposedName == null ? null : view.prompts().get(exposedName));
    }

    public Optional<Route> resource(String uri) {
        return admitted(ListKind.RESOURCES, uri, uri == null ? null : view.resource(uri));
    }

    private Optional<Route> admitted(ListKind kind, String key, Route route) {
        return route != null && profile.admits(kind, key, route.upstream()) ? Optional.of(route) : Optional.empty();
    }

    private boolean admitted(ListKind kind, ObjectNode item) {
        return switch (kind) {
            case TOOLS -> tool(Json.text(item, "name")).isPresent();
            case PROMPTS -> prompt(Json.text(item, "name")).isPresent();
            case RESOURCES -> resource(Json.text(item, "uri")).isPresent();
            case RESOURCE_TEMPLATES -> {
                String template = Json.text(item, "uriTemplate");
                String owner = view.templates().stream().filter(entry -> entry.getKey().template().equals(template))
                        .map(Map.Entry::getValue).findFirst().orElse(null);
                yield owner != null && profile.admits(kind, template, owner);
            }
        };
    }
}

package dev.mcpx.catalogue;

import dev.mcpx.protocol.Json;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** One immutable merged view of every upstream's lists, with the routes back. */
record CatalogueView(Map<ListKind, List<ObjectNode>> lists, Map<String, Route> tools,
                     Map<String, Route> prompts, Map<String, Route> resources,
                     List<Map.Entry<UriTemplate, String>> templates, List<Collision> collisions,
                     List<ShortName> shortNames, Map<String, CatalogueFilter> filters) {

    static CatalogueView empty() {
        return build(List.of());
    }

    /** Upstream parts in config order: on a name clash the earlier one keeps the name. */
    static CatalogueView build(List<UpstreamPart> parts) {
        Map<ListKind, List<ObjectNode>> lists = new EnumMap<>(ListKind.class);
        Map<String, Route> tools = new LinkedHashMap<>();
        Map<String, Route> prompts = new LinkedHashMap<>();
        Map<String, Route> resources = new LinkedHashMap<>();
        List<Map.Entry<UriTemplate, String>> templates = new ArrayList<>();
        Map<String, String> templateOwners = new HashMap<>();
        List<Collision> collisions = new ArrayList<>();
        List<ShortName> shortNames = new ArrayList<>();
        Map<String, CatalogueFilter> filters = new HashMap<>();
        for (ListKind kind : ListKind.values()) {
            lists.put(kind, new ArrayList<>());
        }
        for (UpstreamPart part : parts) {
            filters.put(part.upstream(), part.filter());
            for (ListKind kind : ListKind.values()) {
                for (ObjectNode item : part.items(kind)) {
                    String key = kind == ListKind.RESOURCES ? Json.text(item, "uri")
                            : kind == ListKind.RESOURCE_TEMPLATES ? Json.text(item, "uriTemplate")
                            : Json.text(item, "name");
                    if (key == null || !part.filter().admits(kind, key)) {
                        continue;
                    }
                    ExposedName name = switch (kind) {
                        case TOOLS -> ExposedName.tool(part.prefix(), key);
                        case PROMPTS -> ExposedName.prompt(part.prefix(), key);
                        case RESOURCES, RESOURCE_TEMPLATES -> new ExposedName(key, key);
                    };
                    String exposed = name.shown();
                    Map<String, ?> owners = switch (kind) {
                        case TOOLS -> tools;
                        case PROMPTS -> prompts;
                        case RESOURCES -> resources;
                        case RESOURCE_TEMPLATES -> templateOwners;
                    };
                    Object owner = owners.get(exposed);
                    if (owner != null) {
                        String kept = owner instanceof Route route ? route.upstream() : owner.toString();
                        collisions.add(new Collision(kind, exposed, kept, part.upstream()));
                        continue;
                    }
                    if (name.isShortened()) {
                        shortNames.add(new ShortName(part.upstream(), exposed, name.full()));
                    }
                    Route route = new Route(part.upstream(), key);
                    switch (kind) {
                        case TOOLS -> tools.put(exposed, route);
                        case PROMPTS -> prompts.put(exposed, route);
                        case RESOURCES -> resources.put(exposed, route);
                        case RESOURCE_TEMPLATES -> {
                            templateOwners.put(exposed, part.upstream());
                            templates.add(Map.entry(UriTemplate.of(exposed), part.upstream()));
                        }
                    }
                    lists.get(kind).add(kind.namespaced() ? renamed(item, exposed) : item);
                }
            }
        }
        lists.replaceAll((kind, items) -> List.copyOf(items));
        return new CatalogueView(lists, Map.copyOf(tools), Map.copyOf(prompts), Map.copyOf(resources),
                List.copyOf(templates), List.copyOf(collisions), List.copyOf(shortNames), Map.copyOf(filters));
    }

    private static ObjectNode renamed(ObjectNode item, String exposed) {
        ObjectNode copy = item.deepCopy();
        copy.put("name", exposed);
        return copy;
    }

    /** The upstream that owns {@code uri}: listed exactly, else the first template that is it or fits it. */
    Route resource(String uri) {
        Route listed = resources.get(uri);
        if (listed != null) {
            return listed;
        }
        for (Map.Entry<UriTemplate, String> template : templates) {
            // a completion ref names the template itself
            if (template.getKey().template().equals(uri) || template.getKey().matches(uri)) {
                // a URI the template's owner filters out is nobody's, not the next template's
                CatalogueFilter filter = filters.getOrDefault(template.getValue(), CatalogueFilter.NONE);
                return filter.resources().admits(uri) || template.getKey().template().equals(uri)
                        ? new Route(template.getValue(), uri) : null;
            }
        }
        return null;
    }

    boolean sameListAs(CatalogueView other, ListKind kind) {
        List<ObjectNode> mine = lists.get(kind);
        List<ObjectNode> theirs = other.lists.get(kind);
        if (mine.size() != theirs.size()) {
            return false;
        }
        for (int i = 0; i < mine.size(); i++) {
            if (!((JsonNode) mine.get(i)).equals(theirs.get(i))) {
                return false;
            }
        }
        return true;
    }
}

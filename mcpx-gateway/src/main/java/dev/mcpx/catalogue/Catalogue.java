package dev.mcpx.catalogue;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The merged, namespaced view of every upstream's tools, prompts and resources. Tools and
 * prompts are exposed as {@code prefix__name} (a tool's within 64 characters, see
 * {@link ExposedName}); resources keep their URIs. Readers get an
 * immutable snapshot; writers (the pool, when an upstream's lists arrive or change) replace
 * one upstream's part, and listeners hear which lists changed for hosts.
 */
public final class Catalogue {

    private static final Logger LOG = LoggerFactory.getLogger(Catalogue.class);
    private static final String CURSOR_PREFIX = "mcpx:";

    private final Map<String, UpstreamPart> parts = new LinkedHashMap<>();
    private final List<Consumer<ListChange>> listeners = new CopyOnWriteArrayList<>();
    private volatile CatalogueView view = CatalogueView.empty();
    private volatile Profiles profiles = Profiles.NONE;
    private final Map<String, ToolIndex> indexes = new ConcurrentHashMap<>();
    private volatile ToolsByName toolsByName;

    /** Makes room for an upstream, in config order; its lists arrive later through {@link #replace}. */
    public void register(String upstream, String prefix) {
        register(upstream, prefix, CatalogueFilter.NONE);
    }

    /** Makes room for an upstream whose catalogue hosts see through {@code filter}. */
    public void register(String upstream, String prefix, CatalogueFilter filter) {
        update(() -> parts.putIfAbsent(upstream, UpstreamPart.empty(upstream, prefix, filter)));
    }

    /** Applies a new filter to a registered upstream's lists (a config edit): hosts hear what changed. */
    public void filter(String upstream, CatalogueFilter filter) {
        update(() -> parts.computeIfPresent(upstream, (name, part) -> part.filtered(filter)));
    }

    /** Sets one upstream's list of one kind (already drained of upstream pagination). */
    public void replace(String upstream, ListKind kind, List<ObjectNode> items) {
        update(() -> parts.computeIfPresent(upstream, (name, part) -> part.with(kind, items)));
    }

    /** Empties an upstream's lists but keeps its place (it is down; its tools are absent until it is back). */
    public void clear(String upstream) {
        update(() -> parts.computeIfPresent(upstream, (name, part) -> UpstreamPart.empty(name, part.prefix(), part.filter())));
    }

    /** Empties an upstream's lists but one kind, set to {@code items}, in one change. */
    public void clear(String upstream, ListKind kept, List<ObjectNode> items) {
        update(() -> parts.computeIfPresent(upstream,
                (name, part) -> UpstreamPart.empty(name, part.prefix(), part.filter()).with(kept, items)));
    }

    /** Forgets an upstream (removed from the config). */
    public void remove(String upstream) {
        update(() -> parts.remove(upstream));
    }

    /**
     * Sets the profiles (a config edit): the hosts of each profile that changed hear which of
     * their lists did; those of a removed profile hear of every list (re-listing, they learn it
     * is gone).
     */
    public void profiles(Profiles next) {
        Profiles before;
        CatalogueView now;
        synchronized (parts) {
            before = profiles;
            profiles = next;
            now = view;
        }
        // the same instance first: a record's first equals is bootstrapped through method handles,
        // 5-10 ms of a gateway's start when its config has no profiles (both are Profiles.NONE)
        if (before == next || before.equals(next)) {
            return;
        }
        Map<String, Set<ListKind>> changed = new HashMap<>();
        changed.put("", changedKinds(new HostView(now, before.whole()), new HostView(now, next.whole())));
        Set<String> names = new HashSet<>(before.named().keySet());
        names.addAll(next.named().keySet());
        for (String name : names) {
            Profile was = before.named().get(name);
            Profile is = next.named().get(name);
            if (is == null || was == null) {
                changed.put(name, EnumSet.allOf(ListKind.class));
            } else if (!was.equals(is)) {
                changed.put(name, changedKinds(new HostView(now, was), new HostView(now, is)));
            }
        }
        fire(new ListChange(changed));
    }

    /** The lists that differ between two views; a change of search mode changes what tools hosts are listed. */
    private static Set<ListKind> changedKinds(HostView before, HostView after) {
        Set<ListKind> kinds = EnumSet.noneOf(ListKind.class);
        for (ListKind kind : ListKind.values()) {
            if (!before.list(kind).equals(after.list(kind))) {
                kinds.add(kind);
            }
        }
        if (!before.profile().search().equals(after.profile().search())) {
            kinds.add(ListKind.TOOLS);
        }
        return kinds;
    }

    private void fire(ListChange change) {
        if (!change.isEmpty()) {
            listeners.forEach(listener -> listener.accept(change));
        }
    }

    public Profiles profiles() {
        return profiles;
    }

    /** What hosts of {@code profile} see now. */
    public HostView view(Profile profile) {
        return new HostView(view, profile);
    }

    /**
     * The search index over the tools {@code hosts} sees, rebuilt when that list changed since the
     * last search (a list change, a filter or profile edit), so search never answers from a stale list.
     */
    public ToolIndex index(HostView hosts) {
        List<ObjectNode> tools = hosts.list(ListKind.TOOLS);
        return indexes.compute(hosts.profile().name(), (name, known) ->
                known != null && known.indexes(tools) ? known : ToolIndex.of(tools));
    }

    /** Called after every change with the lists it changed for the hosts of each profile. */
    public void onChange(Consumer<ListChange> listener) {
        listeners.add(listener);
    }

    private void update(Runnable change) {
        CatalogueView before;
        CatalogueView after;
        Profiles current;
        synchronized (parts) {
            change.run();
            before = view;
            after = CatalogueView.build(new ArrayList<>(parts.values()));
            view = after;
            current = profiles;
        }
        for (Collision collision : after.collisions()) {
            if (!before.collisions().contains(collision)) {
                LOG.error("config error: {}", collision.describe());
            }
        }
        for (ShortName shortName : after.shortNames()) {
            if (!before.shortNames().contains(shortName)) {
                LOG.warn("{}", shortName.describe());
            }
        }
        Set<ListKind> changed = EnumSet.noneOf(ListKind.class);
        for (ListKind kind : ListKind.values()) {
            if (!after.sameListAs(before, kind)) {
                changed.add(kind);
            }
        }
        if (changed.isEmpty()) {
            return;
        }
        Map<String, Set<ListKind>> byProfile = new HashMap<>();
        byProfile.put("", current.whole().whole() ? changed : changedKinds(new HostView(before, current.whole()),
                new HostView(after, current.whole()), changed));
        current.named().forEach((name, profile) -> byProfile.put(name,
                changedKinds(new HostView(before, profile), new HostView(after, profile), changed)));
        fire(new ListChange(byProfile));
    }

    /** Of {@code candidates}, the lists that differ for one profile's hosts between two catalogue views. */
    private static Set<ListKind> changedKinds(HostView before, HostView after, Set<ListKind> candidates) {
        Set<ListKind> kinds = EnumSet.noneOf(ListKind.class);
        for (ListKind kind : candidates) {
            if (!before.list(kind).equals(after.list(kind))) {
                kinds.add(kind);
            }
        }
        return kinds;
    }

    public List<ObjectNode> list(ListKind kind) {
        return view.lists().get(kind);
    }

    /**
     * One page of a list for a host. {@code cursor} is null for the first page or one this
     * catalogue handed out; anything else is invalid params.
     */
    public Page page(ListKind kind, String cursor, int pageSize) {
        return page(list(kind), cursor, pageSize);
    }

    /** One page of {@code all}, as {@link #page(ListKind, String, int)} pages a merged list. */
    public static Page page(List<ObjectNode> all, String cursor, int pageSize) {
        int start = cursor == null ? 0 : offset(cursor);
        int end = Math.min(all.size(), start + pageSize);
        String next = end < all.size() ? encode(end) : null;
        return new Page(start >= all.size() ? List.of() : all.subList(start, end), next);
    }

    /**
     * The listed tool a host knows as {@code exposedName}, by an index built once per view: a
     * modern host's call is checked against its tool's schema, and a scan of the whole list per
     * call grew with the catalogue.
     */
    public Optional<ObjectNode> listedTool(String exposedName) {
        CatalogueView current = view;
        ToolsByName index = toolsByName;
        if (index == null || index.view() != current) {
            Map<String, ObjectNode> byName = new HashMap<>();
            for (ObjectNode tool : current.lists().get(ListKind.TOOLS)) {
                String name = Json.text(tool, "name");
                if (name != null) {
                    byName.putIfAbsent(name, tool);
                }
            }
            index = new ToolsByName(current, byName);
            toolsByName = index;
        }
        return Optional.ofNullable(index.tools().get(exposedName));
    }

    private record ToolsByName(CatalogueView view, Map<String, ObjectNode> tools) {
    }

    public Optional<Route> tool(String exposedName) {
        return Optional.ofNullable(view.tools().get(exposedName));
    }

    public Optional<Route> prompt(String exposedName) {
        return Optional.ofNullable(view.prompts().get(exposedName));
    }

    /** The upstream that listed {@code uri}, or whose resource template fits it. */
    public Optional<Route> resource(String uri) {
        return Optional.ofNullable(view.resource(uri));
    }

    public List<Collision> collisions() {
        return view.collisions();
    }

    /** The tools hosts see under a shortened name, with their full names. */
    public List<ShortName> shortNames() {
        return view.shortNames();
    }

    private static String encode(int offset) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((CURSOR_PREFIX + offset).getBytes(StandardCharsets.UTF_8));
    }

    private static int offset(String cursor) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (text.startsWith(CURSOR_PREFIX)) {
                int offset = Integer.parseInt(text.substring(CURSOR_PREFIX.length()));
                if (offset >= 0) {
                    return offset;
                }
            }
        } catch (IllegalArgumentException e) {
            // falls through to the invalid-cursor answer
        }
        throw new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, "invalid cursor: " + cursor));
    }

    /** One page: the items and the cursor of the next page, null on the last. */
    public record Page(List<ObjectNode> items, String nextCursor) {
    }
}

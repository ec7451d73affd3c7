package dev.mcpx.front;

import dev.mcpx.protocol.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The roots of the connected legacy hosts that declared {@code roots}, for an upstream that asks
 * {@code roots/list} outside any call. An upstream session is shared by every host, so such an
 * ask gets the union (each URI once, the first host's name for it); an ask during a call still
 * goes to the host that made the call alone, so no host's roots answer another host's request.
 */
public final class HostRoots {

    /** Per host (its front's own key), its last answer to {@code roots/list}, in arrival order. */
    private final Map<Object, List<JsonNode>> byHost = new LinkedHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    /** {@code listener} runs after every change of the union. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    /** A host's roots, as its {@code roots/list} result's {@code roots} array. */
    public void put(Object host, JsonNode roots) {
        List<JsonNode> list = roots != null && roots.isArray() ? List.copyOf(roots.valueStream().toList()) : List.of();
        change(() -> byHost.put(host, list));
    }

    /** The host went away: its roots are no longer anyone's. */
    public void remove(Object host) {
        change(() -> byHost.remove(host));
    }

    /** The {@code roots/list} result for an upstream's ask outside a call. */
    public synchronized ObjectNode union() {
        ObjectNode result = Json.object();
        ArrayNode roots = result.putArray("roots");
        Map<String, JsonNode> seen = new LinkedHashMap<>();
        byHost.values().forEach(list -> list.forEach(root -> seen.putIfAbsent(Json.text(root, "uri"), root)));
        seen.values().forEach(root -> roots.add(root.deepCopy()));
        return result;
    }

    private void change(Runnable edit) {
        ObjectNode before;
        ObjectNode after;
        synchronized (this) {
            before = union();
            edit.run();
            after = union();
        }
        if (!before.equals(after)) {
            listeners.forEach(Runnable::run);
        }
    }
}

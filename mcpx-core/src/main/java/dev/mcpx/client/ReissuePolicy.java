package dev.mcpx.client;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ToolDescriptor;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decides whether a request whose modern response stream broke may be sent again (recovery
 * Phase 2). Read-shaped methods always may; {@code tools/call} only on evidence that a repeat is
 * harmless: the operator's override, else the tool's annotations.
 */
final class ReissuePolicy {

    /**
     * Not reads, yet harmless to repeat by their definition: the tasks extension makes
     * {@code tasks/cancel} idempotent (a second cancel, even of a terminal task, gets the same
     * empty ack). {@code tasks/update} is left out: it delivers input answers, and a repeat could
     * answer a later input round that reuses a key, so its caller decides (after a tasks/get).
     */
    private static final Set<String> IDEMPOTENT = Set.of(Methods.TASKS_CANCEL);

    private final Map<String, Reissue> overrides;

    ReissuePolicy(Map<String, Reissue> overrides) {
        this.overrides = Map.copyOf(overrides);
    }

    /**
     * @param lookupTool finds the tool's descriptor, refreshing the list when it is unknown;
     *                   returns null when the upstream does not list it
     */
    boolean allows(String method, ObjectNode params, Function<String, ToolDescriptor> lookupTool) {
        if (Methods.READ_SHAPED.contains(method) || IDEMPOTENT.contains(method)) {
            return true;
        }
        if (!Methods.TOOLS_CALL.equals(method)) {
            return false;
        }
        String tool = Json.text(params, "name");
        if (tool == null) {
            return false;
        }
        Reissue override = overrides.get(tool);
        if (override != null) {
            return override == Reissue.ALWAYS;
        }
        ToolDescriptor descriptor = lookupTool.apply(tool);
        return descriptor != null && descriptor.safeToRepeat();
    }
}

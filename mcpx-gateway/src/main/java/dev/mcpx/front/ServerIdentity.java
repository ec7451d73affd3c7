package dev.mcpx.front;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.ProtocolVersion;
import tools.jackson.databind.node.ObjectNode;

/** Who mcpx is to its hosts, and what it offers: the answers to {@code initialize} and {@code server/discover}. */
public record ServerIdentity(String name, String version) {

    public ObjectNode serverInfo() {
        return Json.object().put("name", name).put("version", version);
    }

    /** The version a legacy host asked for when mcpx knows it, else the newest legacy one. */
    public static ProtocolVersion negotiate(String requested) {
        return ProtocolVersion.fromWire(requested == null ? "" : requested)
                .filter(version -> version.era() == Era.LEGACY)
                .orElse(ProtocolVersion.LATEST_LEGACY);
    }

    /** {@code subscribe}: whether resource subscriptions can be honoured (some upstream offers them). */
    ObjectNode initializeResult(ObjectNode params, boolean subscribe) {
        ObjectNode result = Json.object();
        result.put("protocolVersion", negotiate(Json.text(params, "protocolVersion")).wire());
        result.set("capabilities", capabilities(true, subscribe));
        result.set("serverInfo", serverInfo());
        result.put("instructions", INSTRUCTIONS);
        return result;
    }

    ObjectNode discoverResult(boolean subscribe) {
        ObjectNode result = Json.object();
        result.putArray("supportedVersions").add(ProtocolVersion.LATEST_MODERN.wire());
        result.set("capabilities", capabilities(false, subscribe));
        result.put("instructions", INSTRUCTIONS);
        result.putObject(MetaKeys.META).set(MetaKeys.SERVER_INFO, serverInfo());
        return result;
    }

    private static ObjectNode capabilities(boolean legacy, boolean subscribe) {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("tools").put("listChanged", true);
        capabilities.putObject("prompts").put("listChanged", true);
        ObjectNode resources = capabilities.putObject("resources").put("listChanged", true);
        if (subscribe) {
            resources.put("subscribe", true);
        }
        capabilities.putObject("completions");
        if (legacy) {
            capabilities.putObject("logging");
        }
        return capabilities;
    }

    private static final String INSTRUCTIONS = "mcpx gateway: tools and prompts of several MCP servers, "
            + "named <server>__<name>; resources keep their URIs.";
}

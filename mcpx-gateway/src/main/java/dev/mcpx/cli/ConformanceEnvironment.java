package dev.mcpx.cli;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the conformance suite tells the client under test through the environment.
 *
 * @param scenario the scenario name ({@code MCP_CONFORMANCE_SCENARIO})
 * @param version  the revision to speak ({@code MCP_CONFORMANCE_PROTOCOL_VERSION})
 * @param context  scenario data such as tool arguments ({@code MCP_CONFORMANCE_CONTEXT}), or {}
 */
record ConformanceEnvironment(String scenario, ProtocolVersion version, ObjectNode context) {

    static ConformanceEnvironment from(Map<String, String> env) {
        String scenario = env.get("MCP_CONFORMANCE_SCENARIO");
        if (scenario == null || scenario.isBlank()) {
            throw new UsageException("MCP_CONFORMANCE_SCENARIO is not set; the conformance suite sets it");
        }
        String wire = env.getOrDefault("MCP_CONFORMANCE_PROTOCOL_VERSION", ProtocolVersion.LATEST_LEGACY.wire());
        ProtocolVersion version = ProtocolVersion.fromWire(wire).orElseThrow(() ->
                new UsageException("MCP_CONFORMANCE_PROTOCOL_VERSION " + wire + " is not a revision mcpx speaks"));
        return new ConformanceEnvironment(scenario, version, context(env.get("MCP_CONFORMANCE_CONTEXT")));
    }

    private static ObjectNode context(String text) {
        if (text == null || text.isBlank()) {
            return Json.object();
        }
        try {
            if (Json.parse(text) instanceof ObjectNode object) {
                return object;
            }
        } catch (JacksonException e) {
            throw new UsageException("MCP_CONFORMANCE_CONTEXT is not JSON: " + e.getOriginalMessage());
        }
        throw new UsageException("MCP_CONFORMANCE_CONTEXT must be a JSON object");
    }

    /** The {@code toolCalls} the scenario asks for: {@code [{name, arguments}]}, possibly empty. */
    JsonNode toolCalls() {
        return context.path("toolCalls");
    }
}

package dev.mcpx.catalogue;

import dev.mcpx.protocol.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The tools of real MCP servers (test resource {@code search/real-tools.json}), named as hosts see them. */
public final class RealTools {

    private RealTools() {
    }

    public static List<ObjectNode> all() {
        List<ObjectNode> tools = new ArrayList<>();
        for (Map.Entry<String, JsonNode> server : resource("search/real-tools.json").path("servers").properties()) {
            for (JsonNode tool : server.getValue().path("tools")) {
                ObjectNode exposed = ((ObjectNode) tool).deepCopy();
                exposed.put("name", ExposedName.tool(server.getKey(), tool.path("name").asString()).shown());
                tools.add(exposed);
            }
        }
        return tools;
    }

    public static JsonNode resource(String name) {
        try (InputStream in = RealTools.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("test resource " + name + " is missing");
            }
            return Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

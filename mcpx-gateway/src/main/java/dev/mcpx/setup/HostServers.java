package dev.mcpx.setup;

import dev.mcpx.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Reads which servers a host starts itself, next to (bypassing) mcpx: what {@code doctor} reports. */
public final class HostServers {

    private HostServers() {
    }

    /** The names of the entries in {@code file} that do not run mcpx; empty when the file is absent. */
    public static List<String> bypassingMcpx(Host host, Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new ConfigException(file, null, "cannot be read: " + e.getMessage());
        }
        ObjectNode root;
        try {
            root = JsonText.root(text);
        } catch (JacksonException | IllegalArgumentException e) {
            throw new ConfigException(file, null, "is not valid JSON");
        }
        List<String> names = new ArrayList<>();
        if (root.get(host.serversKey()) instanceof ObjectNode servers) {
            for (Map.Entry<String, JsonNode> entry : servers.properties()) {
                if (!runsMcpx(entry.getValue()) && !entry.getValue().path("disabled").asBoolean(false)) {
                    names.add(entry.getKey());
                }
            }
        }
        return names;
    }

    private static boolean runsMcpx(JsonNode entry) {
        JsonNode command = entry.get("command");
        if (command == null || !command.isString()) {
            return false;
        }
        List<String> args = new ArrayList<>();
        if (entry.get("args") instanceof ArrayNode array) {
            array.forEach(arg -> args.add(arg.asString("")));
        }
        return McpxCommand.runsMcpx(command.asString(), args);
    }
}

package dev.mcpx.setup;

import dev.mcpx.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Reads which servers a host starts itself, next to (bypassing) mcpx: what {@code doctor} reports. */
public final class HostServers {

    private HostServers() {
    }

    /**
     * What a host's file starts: {@code bypassing} names the enabled entries that do not run mcpx;
     * {@code mcpxConfigs} the config each mcpx entry serves, by entry name, when it names one with -c.
     */
    public record Found(List<String> bypassing, Map<String, Path> mcpxConfigs) {
    }

    /** What {@code file} starts; nothing when the file is absent. */
    public static Found read(Host host, Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            return new Found(List.of(), Map.of());
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
        Map<String, Path> configs = new LinkedHashMap<>();
        if (root.get(host.serversKey()) instanceof ObjectNode servers) {
            for (Map.Entry<String, JsonNode> entry : servers.properties()) {
                if (runsMcpx(entry.getValue())) {
                    configOption(entry.getValue()).ifPresent(config -> configs.put(entry.getKey(), config));
                } else if (!entry.getValue().path("disabled").asBoolean(false)) {
                    names.add(entry.getKey());
                }
            }
        }
        return new Found(names, configs);
    }

    private static Optional<Path> configOption(JsonNode entry) {
        JsonNode args = entry.path("args");
        for (int i = 0; i + 1 < args.size(); i++) {
            String arg = args.get(i).asString("");
            if (arg.equals("-c") || arg.equals("--config")) {
                return Optional.of(Path.of(args.get(i + 1).asString("")));
            }
        }
        return Optional.empty();
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

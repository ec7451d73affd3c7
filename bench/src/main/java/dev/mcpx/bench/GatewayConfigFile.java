package dev.mcpx.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Writes an {@code mcpServers} config for the gateway under test. */
final class GatewayConfigFile {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ObjectNode servers;
    private final ObjectNode root;

    GatewayConfigFile() {
        root = JSON.createObjectNode();
        servers = root.putObject("mcpServers");
    }

    GatewayConfigFile http(String name, URI url) {
        servers.putObject(name).put("url", url.toString());
        return this;
    }

    GatewayConfigFile stdio(String name, List<String> command) {
        ObjectNode entry = servers.putObject(name).put("command", command.getFirst());
        command.subList(1, command.size()).forEach(entry.putArray("args")::add);
        return this;
    }

    /** A boolean gateway option under {@code "mcpx"}, e.g. {@code metrics}. */
    GatewayConfigFile option(String name, boolean value) {
        (root.has("mcpx") ? (ObjectNode) root.get("mcpx") : root.putObject("mcpx")).put(name, value);
        return this;
    }

    /** {@code mcpx.telemetry}: traces to the collector at {@code endpoint}, every trace kept at {@code sampling} 1. */
    GatewayConfigFile traces(URI endpoint, double sampling) {
        (root.has("mcpx") ? (ObjectNode) root.get("mcpx") : root.putObject("mcpx")).putObject("telemetry")
                .put("endpoint", endpoint.toString()).put("sampling", sampling);
        return this;
    }

    Path write(Path dir, String fileName) {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(fileName);
            Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
            return file;
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the gateway config", e);
        }
    }
}

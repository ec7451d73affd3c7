package dev.mcpx.setup;

import dev.mcpx.config.ConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one setup changed, kept beside the host file for {@code --undo}: the digests of what it
 * wrote (a file still matching is restored byte for byte), mcpx's config as it was, and the
 * entries it added there.
 */
record SetupRecord(String host, boolean hostExisted, String hostWritten, String mcpxConfig,
                   String mcpxBefore, String mcpxWritten, ObjectNode added) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    String toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("host", host).put("hostExisted", hostExisted).put("hostWritten", hostWritten)
                .put("mcpxConfig", mcpxConfig).put("mcpxBefore", mcpxBefore).put("mcpxWritten", mcpxWritten);
        node.set("added", added);
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node) + "\n";
    }

    static SetupRecord parse(String text, Path file) {
        try {
            JsonNode node = JSON.readTree(text);
            JsonNode before = node.get("mcpxBefore");
            return new SetupRecord(node.get("host").asString(), node.get("hostExisted").asBoolean(),
                    node.get("hostWritten").asString(), node.get("mcpxConfig").asString(),
                    before == null || before.isNull() ? null : before.asString(),
                    node.get("mcpxWritten").asString(), (ObjectNode) node.get("added"));
        } catch (JacksonException | NullPointerException | ClassCastException e) {
            throw new ConfigException(file, null, "is not a setup record mcpx can read: " + e.getMessage());
        }
    }

    static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.mcpx.config;

import java.net.URI;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Reads {@code mcpx.cluster}. */
final class ClusterParser {

    private static final Set<String> KEYS = Set.of("redis", "secretKey", "secretKeyFile");

    private ClusterParser() {
    }

    static ClusterOptions parse(Path file, JsonNode node, VariableExpander expander) {
        if (node == null || node.isNull()) {
            return ClusterOptions.NONE;
        }
        if (!(node instanceof ObjectNode cluster)) {
            throw new ConfigException(file, null, "\"mcpx.cluster\" must be an object with \"redis\", not " + Fields.kind(node));
        }
        for (String name : cluster.propertyNames()) {
            if (!KEYS.contains(name)) {
                throw new ConfigException(file, null, "\"mcpx.cluster\" has unknown key \"" + name + "\" (known: redis, secretKey, secretKeyFile)");
            }
        }
        Fields fields = new Fields(file, null, "mcpx.cluster.");
        String redis = fields.string(cluster, "redis");
        Optional<URI> uri = redis == null ? Optional.empty()
                : Optional.of(redisUri(expand(file, expander, redis, "mcpx.cluster.redis"), "mcpx.cluster.redis", file));
        String key = fields.string(cluster, "secretKey");
        String keyFile = fields.string(cluster, "secretKeyFile");
        if (key != null && keyFile != null) {
            throw new ConfigException(file, null, "mcpx.cluster has both secretKey and secretKeyFile: keep one");
        }
        List<String> keys = List.of();
        if (key != null) {
            keys = keys(expand(file, expander, key, "mcpx.cluster.secretKey"), "mcpx.cluster.secretKey", file);
        } else if (keyFile != null) {
            Path path = (file == null ? Path.of("") : file.toAbsolutePath().getParent())
                    .resolve(expand(file, expander, keyFile, "mcpx.cluster.secretKeyFile")).normalize();
            try {
                keys = keys(Files.readString(path), "mcpx.cluster.secretKeyFile " + path, file);
            } catch (NoSuchFileException e) {
                throw new ConfigException(file, null, "mcpx.cluster.secretKeyFile " + path + ": no such file");
            } catch (IOException e) {
                throw new ConfigException(file, null, "mcpx.cluster.secretKeyFile " + path + " cannot be read: " + e.getMessage());
            }
        }
        return new ClusterOptions(uri, keys);
    }

    private static String expand(Path file, VariableExpander expander, String text, String where) {
        try {
            return expander.expand(text, where);
        } catch (VariableExpander.UndefinedVariable e) {
            throw new ConfigException(file, null, e.getMessage());
        }
    }

    /**
     * Keys separated by white space or commas, the sealing one first: each the base64 of 16, 24
     * or 32 random bytes ({@code openssl rand -base64 32}). A message never repeats a key.
     */
    static List<String> keys(String text, String where, Path file) {
        List<String> keys = new ArrayList<>();
        for (String word : text.strip().split("[\\s,]+")) {
            if (word.isEmpty()) {
                continue;
            }
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(word);
            } catch (IllegalArgumentException e) {
                bytes = null;
            }
            if (bytes == null || (bytes.length != 16 && bytes.length != 24 && bytes.length != 32)) {
                throw new ConfigException(file, null, where + ": key " + (keys.size() + 1) + " is not the base64 of 16, 24 "
                        + "or 32 bytes (make one with `openssl rand -base64 32`)");
            }
            keys.add(word);
        }
        if (keys.isEmpty()) {
            throw new ConfigException(file, null, where + " is empty: give a key (`openssl rand -base64 32`)");
        }
        return List.copyOf(keys);
    }

    /** {@code redis://HOST:PORT[/DB]} or {@code rediss://...} (TLS); anything else names {@code where}. */
    static URI redisUri(String text, String where, Path file) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            uri = null;
        }
        boolean redisScheme = uri != null && ("redis".equals(uri.getScheme()) || "rediss".equals(uri.getScheme()));
        if (!redisScheme || uri.getHost() == null || uri.getPort() < 1) {
            // the text may hold a password: the message never repeats it
            String got = uri == null ? "text that is not a URL" : uri.getScheme() == null ? "a URL without a scheme"
                    : !redisScheme ? "a " + uri.getScheme() + ":// URL" : "a URL without a host and port";
            throw new ConfigException(file, null, where + " must be redis://HOST:PORT or rediss://HOST:PORT "
                    + "(with user:password@ and /DB if needed), not " + got);
        }
        return uri;
    }
}

package dev.mcpx.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Reads {@code mcpx.cluster}. */
final class ClusterParser {

    private static final Set<String> KEYS = Set.of("redis");

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
                throw new ConfigException(file, null, "\"mcpx.cluster\" has unknown key \"" + name + "\" (known: redis)");
            }
        }
        String redis = new Fields(file, null, "mcpx.cluster.").string(cluster, "redis");
        if (redis == null) {
            return ClusterOptions.NONE;
        }
        String expanded;
        try {
            expanded = expander.expand(redis, "mcpx.cluster.redis");
        } catch (VariableExpander.UndefinedVariable e) {
            throw new ConfigException(file, null, e.getMessage());
        }
        return new ClusterOptions(Optional.of(redisUri(expanded, "mcpx.cluster.redis", file)));
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

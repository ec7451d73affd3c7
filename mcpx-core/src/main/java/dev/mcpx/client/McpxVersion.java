package dev.mcpx.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The one version of mcpx, written into a resource by the build: the CLI's {@code --version},
 * the {@code serverInfo} hosts see and the {@code clientInfo} upstreams see all read it here.
 */
public final class McpxVersion {

    private static final String VERSION = load();

    private McpxVersion() {
    }

    public static String current() {
        return VERSION;
    }

    private static String load() {
        Properties properties = new Properties();
        try (InputStream in = McpxVersion.class.getResourceAsStream("mcpx-version.properties")) {
            if (in == null) {
                throw new IllegalStateException("mcpx-version.properties is missing from the build");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }
}

package dev.mcpx.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.slf4j.LoggerFactory;

/**
 * One bearer token the HTTP front accepts, with a name for logs (never the secret) and what it
 * may reach: everything, or the monitoring endpoints only; {@code profile}, when not null, is
 * the one profile its hosts are served (whatever path they ask for).
 */
public record FrontToken(String name, String secret, Scope scope, String profile) {

    public enum Scope {
        /** {@code /mcp} and the monitoring endpoints. */
        ALL,
        /** The monitoring endpoints ({@code /status}) only: read-only. */
        MONITOR
    }

    public FrontToken {
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("a token must not be empty");
        }
    }

    /** A token bound to no profile. */
    public FrontToken(String name, String secret, Scope scope) {
        this(name, secret, scope, null);
    }

    /** The same token, serving only {@code profileName}. */
    public FrontToken bound(String profileName) {
        return new FrontToken(name, secret, scope, profileName);
    }

    /**
     * A token kept in a file (first line, surrounding whitespace dropped), so it never shows in
     * the process's command line. A missing, unreadable or empty file is a {@link ConfigException}
     * naming it.
     */
    public static FrontToken fromFile(String name, Path file, Scope scope) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file, null, "no such token file");
        } catch (IOException e) {
            throw new ConfigException(file, null, "token file cannot be read: " + e.getMessage());
        }
        String secret = text.strip().lines().findFirst().orElse("").strip();
        if (secret.isEmpty()) {
            throw new ConfigException(file, null, "token file is empty");
        }
        warnIfOthersCanRead(file);
        return new FrontToken(name, secret, scope);
    }

    /** A token file other local users can read gives them the gateway: said once, at start. */
    private static void warnIfOthersCanRead(Path file) {
        Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(file);
        } catch (IOException | UnsupportedOperationException e) {
            return;
        }
        if (permissions.contains(PosixFilePermission.GROUP_READ) || permissions.contains(PosixFilePermission.OTHERS_READ)) {
            LoggerFactory.getLogger(FrontToken.class).warn("token file {} can be read by other users: chmod 600 {}",
                    file, file);
        }
    }

    /** The secret is never printed. */
    @Override
    public String toString() {
        return "FrontToken[" + name + ", " + scope + (profile == null ? "" : ", profile " + profile) + "]";
    }
}

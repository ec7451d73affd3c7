package dev.mcpx.login;

import dev.mcpx.auth.TokenStore;
import dev.mcpx.protocol.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.node.ObjectNode;

/**
 * The user's one token store, shared by every mcpx process whatever host started it: a JSON
 * object in {@code tokens.json} under {@code $MCPX_HOME}, else {@code ~/.config/mcpx/}, mode
 * 0600 in a 0700 directory. Every read sees what another process wrote; a write is a
 * read-modify-replace under a lock file, so two processes never lose each other's entries.
 */
public final class TokenFile implements TokenStore {

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    private static volatile TokenFile shared;

    private final Path file;

    public TokenFile(Path file) {
        this.file = file;
    }

    /** The store of this user, where {@link #location} says. */
    public static TokenFile shared() {
        TokenFile current = shared;
        if (current == null) {
            synchronized (TokenFile.class) {
                if (shared == null) {
                    shared = new TokenFile(location(System.getenv()));
                }
                current = shared;
            }
        }
        return current;
    }

    /** {@code $MCPX_HOME/tokens.json}, else {@code ~/.config/mcpx/tokens.json} ({@code $HOME} winning over the JVM's home). */
    public static Path location(Map<String, String> env) {
        String mcpxHome = env.get("MCPX_HOME");
        if (mcpxHome != null && !mcpxHome.isBlank()) {
            return Path.of(mcpxHome, "tokens.json");
        }
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        return Path.of(home, ".config", "mcpx", "tokens.json");
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized Optional<ObjectNode> read(String key) {
        return Optional.ofNullable(readAll().get(key) instanceof ObjectNode entry ? entry : null);
    }

    @Override
    public synchronized void write(String key, ObjectNode value) {
        update(all -> all.set(key, value));
    }

    @Override
    public synchronized void remove(String key) {
        update(all -> all.remove(key));
    }

    private ObjectNode readAll() {
        if (!Files.exists(file)) {
            return Json.object();
        }
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            return text.isBlank() ? Json.object() : Json.parse(text) instanceof ObjectNode all ? all : Json.object();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the token store " + file, e);
        } catch (JacksonException e) {
            throw new IllegalStateException("the token store " + file + " is not JSON: remove it and log in again", e);
        }
    }

    private void update(Consumer<ObjectNode> change) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
            }
            Path lockFile = dir.resolve(file.getFileName() + ".lock");
            try (FileChannel lock = FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(OWNER_ONLY)); FileLock held = lock.lock()) {
                ObjectNode all = readAll();
                change.accept(all);
                Path temp = Files.createTempFile(dir, "tokens", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.writeString(temp, Json.write(all), StandardCharsets.UTF_8);
                try {
                    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the token store " + file, e);
        }
    }
}

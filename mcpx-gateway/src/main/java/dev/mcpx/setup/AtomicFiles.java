package dev.mcpx.setup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** Writes that a crash cannot leave half done: a temp file beside the target, then a rename. */
final class AtomicFiles {

    /** A file mcpx creates may hold secrets (headers, env), so only its owner reads it. */
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private AtomicFiles() {
    }

    /** Replaces {@code file}'s bytes; an existing file keeps its permissions, a symlink its link. */
    static void write(Path file, byte[] bytes) {
        try {
            Path target = Files.isSymbolicLink(file) ? file.toRealPath() : file;
            Path directory = target.toAbsolutePath().getParent();
            Files.createDirectories(directory);
            Set<PosixFilePermission> permissions = posix(directory)
                    ? (Files.exists(target) ? Files.getPosixFilePermissions(target) : OWNER_ONLY) : null;
            Path temp = Files.createTempFile(directory, "." + target.getFileName(), ".tmp");
            try {
                Files.write(temp, bytes);
                if (permissions != null) {
                    Files.setPosixFilePermissions(temp, permissions);
                }
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static boolean posix(Path directory) {
        return Files.getFileAttributeView(directory, PosixFileAttributeView.class) != null;
    }
}

package dev.mcpx.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A signed statement of who mcpx (or its user) is, issued by someone else and presented to get a
 * token: a workload's JWT for the JWT bearer grant (RFC 7523, workload identity federation), or
 * the user's ID token from the enterprise's identity provider (enterprise-managed
 * authorization). Read each time a token is needed, so a file that is rotated under mcpx (a
 * projected service account token) gives the current one.
 */
@FunctionalInterface
public interface IdentityAssertion {

    /** The assertion (a compact JWT) as it is now. */
    String read();

    /** A fixed value (for example from an environment variable). */
    static IdentityAssertion of(String value) {
        Objects.requireNonNull(value, "value");
        return value::strip;
    }

    /** The content of {@code file}, read at each use. */
    static IdentityAssertion file(Path file) {
        Objects.requireNonNull(file, "file");
        return () -> {
            try {
                return Files.readString(file, StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the identity assertion in " + file + ": " + e.getMessage(), e);
            }
        };
    }
}

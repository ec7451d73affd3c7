package dev.mcpx.front.http;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Set;

/**
 * The two checks every request passes before anything else: a browser {@code Origin} must be
 * local (DNS-rebinding protection, 403 otherwise) and, when a token is configured, the
 * {@code Authorization: Bearer} header must carry it (401 otherwise, compared in constant time).
 */
final class AccessGuard {

    private static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private final byte[] token;
    private final String boundHost;

    /** {@code token} null: no authentication. {@code boundHost}: a non-local address mcpx was told to bind. */
    AccessGuard(String token, String boundHost) {
        this.token = token == null ? null : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        this.boundHost = boundHost == null ? "" : boundHost.toLowerCase(Locale.ROOT);
    }

    /** True when there is no Origin (not a browser) or it names this machine. */
    boolean originAllowed(String origin) {
        if (origin == null) {
            return true;
        }
        try {
            String host = URI.create(origin.trim()).getHost();
            if (host == null) {
                return false;
            }
            host = host.toLowerCase(Locale.ROOT);
            return LOCAL_HOSTS.contains(host) || (!boundHost.isEmpty() && !boundHost.equals("0.0.0.0") && host.equals(boundHost));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    boolean authorized(String authorization) {
        if (token == null) {
            return true;
        }
        byte[] given = authorization == null ? new byte[0] : authorization.trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, token);
    }
}

package dev.mcpx.front.http;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Set;

/**
 * The checks every request passes before anything else: a browser {@code Origin} must be
 * local and, on a loopback bind, so must {@code Host} (DNS-rebinding protection, 403 otherwise) and, when a token is configured, the
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

    /**
     * When bound to loopback, the {@code Host} header must name this machine too: a DNS-rebinding
     * page reads same-origin GETs (such as {@code /status}) without sending any {@code Origin}, but it
     * cannot make the browser send a {@code Host} other than its own domain.
     */
    boolean hostAllowed(String host) {
        if (!boundToLoopback()) {
            return true;
        }
        if (host == null) {
            return false;
        }
        String name = host.trim().toLowerCase(Locale.ROOT);
        if (name.startsWith("[")) {
            int close = name.indexOf(']');
            name = close < 0 ? name : name.substring(0, close + 1);
        } else if (name.indexOf(':') >= 0) {
            name = name.substring(0, name.indexOf(':'));
        }
        return LOCAL_HOSTS.contains(name);
    }

    private boolean boundToLoopback() {
        return boundHost.isEmpty() || LOCAL_HOSTS.contains(boundHost) || boundHost.startsWith("127.");
    }

    boolean authorized(String authorization) {
        if (token == null) {
            return true;
        }
        byte[] given = authorization == null ? new byte[0] : authorization.trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, token);
    }
}

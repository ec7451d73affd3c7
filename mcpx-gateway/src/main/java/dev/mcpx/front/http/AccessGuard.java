package dev.mcpx.front.http;

import dev.mcpx.config.FrontToken;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The checks every request passes before anything else: a browser {@code Origin} must be
 * local and, on a loopback bind, so must {@code Host} (DNS-rebinding protection, 403 otherwise) and, when tokens are configured, the
 * {@code Authorization: Bearer} header must carry one that reaches the endpoint (401 for none or an unknown one, 403 for a
 * monitoring token on {@code /mcp}).
 *
 * <p>Tokens are compared as SHA-256 digests, each against every configured one without stopping
 * at a match, so neither a token's length, its matching prefix nor which token matched shows in
 * the time an answer takes.
 */
final class AccessGuard {

    private static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    /** What a request asks to reach. */
    enum Reach {
        /** {@code /mcp}: tools, resources and prompts of every upstream. */
        MCP,
        /** {@code /status}: read-only, but it names servers and processes. */
        MONITORING
    }

    enum Verdict {
        ALLOWED,
        UNAUTHORIZED,
        FORBIDDEN
    }

    private record Known(FrontToken token, byte[] digest) {
    }

    private final List<Known> tokens;
    private final boolean mcpOpen;
    private final String boundHost;

    /** No tokens: no authentication. {@code boundHost}: a non-local address mcpx was told to bind. */
    AccessGuard(List<FrontToken> tokens, String boundHost) {
        this.tokens = tokens.stream().map(token -> new Known(token, digest("Bearer " + token.secret()))).toList();
        this.mcpOpen = tokens.stream().noneMatch(token -> token.scope() == FrontToken.Scope.ALL);
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

    /**
     * {@code /mcp} is open while no token of scope {@code all} is configured; the monitoring
     * endpoints while no token at all is. A monitoring token is refused on {@code /mcp} (403).
     */
    Verdict authorize(String authorization, Reach reach) {
        boolean open = reach == Reach.MCP ? mcpOpen : tokens.isEmpty();
        if (open) {
            return Verdict.ALLOWED;
        }
        FrontToken token = match(authorization);
        if (token == null) {
            return Verdict.UNAUTHORIZED;
        }
        return reach == Reach.MCP && token.scope() == FrontToken.Scope.MONITOR ? Verdict.FORBIDDEN : Verdict.ALLOWED;
    }

    /** The configured token the header carries, or null. */
    FrontToken match(String authorization) {
        byte[] given = digest(authorization == null ? "" : authorization.trim());
        FrontToken found = null;
        for (Known known : tokens) {
            if (MessageDigest.isEqual(given, known.digest()) && found == null) {
                found = known.token();
            }
        }
        return found;
    }

    private static byte[] digest(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}

package dev.mcpx.front.http;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.mcpx.config.FrontToken;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The checks every request passes before anything else: a browser {@code Origin} must be
 * local and, on a loopback bind, so must {@code Host} (DNS-rebinding protection, 403 otherwise) and, when tokens are configured, the
 * {@code Authorization: Bearer} header must carry one that reaches the endpoint (401 for none or an unknown one, 403 for a
 * monitoring token on {@code /mcp}): a configured token, or an OAuth access token from the
 * configured authorization server (401 with the resource metadata's address when invalid).
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

    /** What a request is granted. */
    sealed interface Access {

        /** Any endpoint its path names. */
        Allowed ANY = new Allowed(null, null);

        /**
         * {@code profile}: the one profile this credential is served whatever the path (null:
         * the path decides); {@code chooser}: what bound it, for messages.
         */
        record Allowed(String profile, String chooser) implements Access {
        }

        /** {@code challenge}: the {@code WWW-Authenticate} value, or null. */
        record Refused(int status, String challenge, String message) implements Access {
        }
    }

    private record Known(FrontToken token, byte[] digest) {
    }

    private final List<Known> tokens;
    private final boolean mcpOpen;
    private final String boundHost;
    private final ProtectedResource resource;
    private final AccessTokens accessTokens;

    /** No tokens: no authentication. {@code boundHost}: a non-local address mcpx was told to bind. */
    AccessGuard(List<FrontToken> tokens, String boundHost) {
        this(tokens, boundHost, null, null);
    }

    /** With OAuth access tokens as well, when {@code resource} is not null. */
    AccessGuard(List<FrontToken> tokens, String boundHost, ProtectedResource resource, AccessTokens accessTokens) {
        this.tokens = tokens.stream().map(token -> new Known(token, digest("Bearer " + token.secret()))).toList();
        this.mcpOpen = tokens.stream().noneMatch(token -> token.scope() == FrontToken.Scope.ALL);
        this.boundHost = boundHost == null ? "" : boundHost.toLowerCase(Locale.ROOT);
        this.resource = resource;
        this.accessTokens = accessTokens;
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
     * Whether a request may reach {@code reach} at the endpoint of {@code pathProfile} (null:
     * {@code /mcp} or a monitoring endpoint). {@code /mcp} is open while no token of scope
     * {@code all} is configured and no authorization server; the monitoring endpoints while no
     * token at all is. A monitoring token is refused on {@code /mcp} (403). An OAuth access token
     * must be valid for the endpoint's resource, carry the configured scopes (403 otherwise) and,
     * when a profile claim is configured, name a profile (403 otherwise).
     */
    Access authorize(String authorization, Reach reach, String pathProfile) {
        boolean open = (reach == Reach.MCP ? mcpOpen : tokens.isEmpty()) && resource == null;
        if (open) {
            return Access.ANY;
        }
        FrontToken token = match(authorization);
        if (token != null) {
            return reach == Reach.MCP && token.scope() == FrontToken.Scope.MONITOR
                    ? new Access.Refused(403, null, "Forbidden: this token may read the monitoring endpoints only")
                    : new Access.Allowed(token.profile(), "this token");
        }
        if (resource == null) {
            return new Access.Refused(401, "Bearer", "Unauthorized: a valid bearer token is required");
        }
        String bearer = bearer(authorization);
        if (bearer == null) {
            return new Access.Refused(401, resource.challenge(pathProfile, null, null), "Unauthorized: an access token is "
                    + "required; the authorization server is named at " + resource.metadataUrl(pathProfile));
        }
        return switch (accessTokens.check(bearer, resource.audiences(pathProfile))) {
            case AccessTokens.Invalid invalid -> new Access.Refused(401,
                    resource.challenge(pathProfile, "invalid_token", invalid.reason()), "Unauthorized: " + invalid.reason());
            case AccessTokens.Unavailable unavailable -> new Access.Refused(503, null,
                    "Service unavailable: access tokens cannot be checked now: " + unavailable.reason());
            case AccessTokens.Valid valid -> granted(valid.claims(), pathProfile);
        };
    }

    private Access granted(JWTClaimsSet claims, String pathProfile) {
        Set<String> granted = scopes(claims);
        List<String> missing = resource.requiredScopes().stream().filter(scope -> !granted.contains(scope)).toList();
        if (!missing.isEmpty()) {
            String reason = "the token lacks scope " + String.join(" ", missing);
            return new Access.Refused(403, resource.challenge(pathProfile, "insufficient_scope", reason), "Forbidden: " + reason);
        }
        String claim = resource.profileClaim();
        if (claim == null) {
            return Access.ANY;
        }
        Object profile = claims.getClaim(claim);
        if (!(profile instanceof String name) || name.isBlank()) {
            return new Access.Refused(403, null, "Forbidden: the access token has no \"" + claim
                    + "\" claim naming the profile it is served (ask the authorization server's administrator)");
        }
        return new Access.Allowed(name, "the access token's \"" + claim + "\" claim");
    }

    /** {@code scope} (space-separated, RFC 9068) or {@code scp} (a list or a string, as some servers issue). */
    private static Set<String> scopes(JWTClaimsSet claims) {
        Set<String> scopes = new HashSet<>();
        for (String name : List.of("scope", "scp")) {
            Object value = claims.getClaim(name);
            if (value instanceof String text) {
                scopes.addAll(List.of(text.trim().split("\\s+")));
            } else if (value instanceof List<?> list) {
                list.forEach(item -> scopes.add(String.valueOf(item)));
            }
        }
        return scopes;
    }

    private static String bearer(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.trim();
        if (value.length() <= 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = value.substring(7).trim();
        return token.isEmpty() ? null : token;
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

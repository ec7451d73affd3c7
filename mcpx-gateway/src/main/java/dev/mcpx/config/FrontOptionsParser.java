package dev.mcpx.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mcpx.token}, {@code mcpx.tokens}, {@code mcpx.auth} and {@code mcpx.tls}: who may use the
 * HTTP front, and its certificate.
 */
final class FrontOptionsParser {

    private static final Set<String> TOKEN_KEYS = Set.of("token", "file", "scope", "profile");
    private static final Set<String> TLS_KEYS = Set.of("cert", "key");
    private static final List<String> AUTH_KEYS = List.of("issuer", "resource", "audience", "jwksUri", "profileClaim",
            "scopes");

    private final Path file;
    private final Path base;
    private final VariableExpander expander;
    private final Fields fields;

    FrontOptionsParser(Path file, VariableExpander expander) {
        this.file = file;
        this.base = file.toAbsolutePath().getParent();
        this.expander = expander;
        this.fields = new Fields(file, null, "mcpx.");
    }

    List<FrontToken> tokens(ObjectNode options) {
        List<FrontToken> tokens = new ArrayList<>();
        String single = fields.string(options, "token");
        if (single != null) {
            String secret = expand(single, "mcpx.token");
            if (secret.isBlank()) {
                throw problem("mcpx.token must not be empty");
            }
            tokens.add(new FrontToken("token", secret, FrontToken.Scope.ALL));
        }
        JsonNode named = options.get("tokens");
        if (named == null || named.isNull()) {
            return tokens;
        }
        if (!(named instanceof ObjectNode entries)) {
            throw problem("\"mcpx.tokens\" must be an object of named tokens, not " + Fields.kind(named));
        }
        for (Map.Entry<String, JsonNode> entry : entries.properties()) {
            tokens.add(named(entry.getKey(), entry.getValue()));
        }
        return tokens;
    }

    private FrontToken named(String name, JsonNode value) {
        String where = "mcpx.tokens." + name;
        if (value.isString()) {
            return secret(name, value.asString(), where, FrontToken.Scope.ALL);
        }
        if (!(value instanceof ObjectNode token)) {
            throw problem("\"" + where + "\" must be a token string or an object with \"token\" or \"file\", not "
                    + Fields.kind(value));
        }
        for (String key : token.propertyNames()) {
            if (!TOKEN_KEYS.contains(key)) {
                throw problem("\"" + where + "\" has unknown key \"" + key + "\" (known: token, file, scope, profile)");
            }
        }
        Fields inner = new Fields(file, null, where + ".");
        String scopeText = inner.string(token, "scope");
        FrontToken.Scope scope = switch (scopeText == null ? "all" : scopeText) {
            case "all" -> FrontToken.Scope.ALL;
            case "monitor" -> FrontToken.Scope.MONITOR;
            default -> throw problem("\"" + where + ".scope\" must be \"all\" or \"monitor\", not \"" + scopeText + "\"");
        };
        String secret = inner.string(token, "token");
        String path = inner.string(token, "file");
        if ((secret == null) == (path == null)) {
            throw problem("\"" + where + "\" needs exactly one of \"token\" and \"file\"");
        }
        FrontToken parsed = secret != null ? secret(name, secret, where + ".token", scope)
                : FrontToken.fromFile(name, path(path, where + ".file"), scope);
        String profile = inner.string(token, "profile");
        return profile == null ? parsed : parsed.bound(profile);
    }

    private FrontToken secret(String name, String text, String where, FrontToken.Scope scope) {
        String secret = expand(text, where);
        if (secret.isBlank()) {
            throw problem("\"" + where + "\" must not be empty");
        }
        return new FrontToken(name, secret, scope);
    }

    Optional<TlsFiles> tls(ObjectNode options) {
        JsonNode node = options.get("tls");
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!(node instanceof ObjectNode tls)) {
            throw problem("\"mcpx.tls\" must be an object with \"cert\" and \"key\", not " + Fields.kind(node));
        }
        for (String key : tls.propertyNames()) {
            if (!TLS_KEYS.contains(key)) {
                throw problem("\"mcpx.tls\" has unknown key \"" + key + "\" (known: cert, key)");
            }
        }
        Fields inner = new Fields(file, null, "mcpx.tls.");
        String cert = inner.string(tls, "cert");
        String key = inner.string(tls, "key");
        if (cert == null || key == null) {
            throw problem("\"mcpx.tls\" needs both \"cert\" and \"key\" (PEM files)");
        }
        return Optional.of(new TlsFiles(path(cert, "mcpx.tls.cert"), path(key, "mcpx.tls.key")));
    }

    Optional<FrontAuth> auth(ObjectNode options) {
        JsonNode node = options.get("auth");
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!(node instanceof ObjectNode auth)) {
            throw problem("\"mcpx.auth\" must be an object with at least \"issuer\", not " + Fields.kind(node));
        }
        for (String key : auth.propertyNames()) {
            if (!AUTH_KEYS.contains(key)) {
                throw problem("\"mcpx.auth\" has unknown key \"" + key + "\" (known: " + String.join(", ", AUTH_KEYS) + ")");
            }
        }
        Fields inner = new Fields(file, null, "mcpx.auth.");
        String issuer = optional(inner.string(auth, "issuer"), "mcpx.auth.issuer");
        if (issuer == null) {
            throw problem("\"mcpx.auth\" needs \"issuer\": the authorization server whose tokens the front accepts");
        }
        url(issuer, "mcpx.auth.issuer");
        Optional<URI> resource = Optional.ofNullable(optional(inner.string(auth, "resource"), "mcpx.auth.resource"))
                .map(text -> url(text, "mcpx.auth.resource"));
        resource.filter(uri -> uri.getRawQuery() != null || uri.getRawFragment() != null).ifPresent(uri -> {
            throw problem("\"mcpx.auth.resource\" must have no query or fragment (RFC 8707), not \"" + uri + "\"");
        });
        JsonNode audienceNode = auth.get("audience");
        List<String> audiences = audienceNode != null && audienceNode.isString()
                ? List.of(expand(audienceNode.asString(), "mcpx.auth.audience"))
                : inner.strings(auth, "audience").stream().map(text -> expand(text, "mcpx.auth.audience")).toList();
        Optional<URI> jwks = Optional.ofNullable(optional(inner.string(auth, "jwksUri"), "mcpx.auth.jwksUri"))
                .map(text -> url(text, "mcpx.auth.jwksUri"));
        Optional<String> claim = Optional.ofNullable(optional(inner.string(auth, "profileClaim"), "mcpx.auth.profileClaim"));
        List<String> scopes = inner.strings(auth, "scopes").stream().map(text -> expand(text, "mcpx.auth.scopes")).toList();
        for (String scope : scopes) {
            if (scope.isBlank() || scope.chars().anyMatch(c -> c <= ' ' || c == '"' || c == '\\')) {
                throw problem("\"mcpx.auth.scopes\" has \"" + scope + "\", which is not a scope token (RFC 6749 section 3.3)");
            }
        }
        return Optional.of(new FrontAuth(issuer, resource, audiences, jwks, claim, scopes));
    }

    private String optional(String text, String where) {
        if (text == null) {
            return null;
        }
        String expanded = expand(text, where);
        if (expanded.isBlank()) {
            throw problem("\"" + where + "\" must not be empty");
        }
        return expanded;
    }

    /** An absolute https URL, or http to this machine (a test or a local authorization server). */
    private URI url(String text, String where) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (java.net.URISyntaxException e) {
            throw problem("\"" + where + "\" must be a URL, not \"" + text + "\"");
        }
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        boolean local = "http".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null
                && (uri.getHost().equals("localhost") || uri.getHost().startsWith("127.") || uri.getHost().equals("[::1]"));
        if (uri.getHost() == null || !(https || local)) {
            throw problem("\"" + where + "\" must be an https URL (http only to localhost), not \"" + text + "\"");
        }
        return uri;
    }

    /** A path from the file, expanded, relative to the config file's folder. */
    private Path path(String text, String where) {
        String expanded = expand(text, where);
        if (expanded.isBlank() || expanded.indexOf('\0') >= 0) {
            throw problem("\"" + where + "\" must be a file path");
        }
        return base.resolve(expanded).normalize();
    }

    private String expand(String text, String where) {
        try {
            return expander.expand(text, where);
        } catch (VariableExpander.UndefinedVariable e) {
            throw problem(e.getMessage());
        }
    }

    private ConfigException problem(String text) {
        return new ConfigException(file, null, text);
    }
}

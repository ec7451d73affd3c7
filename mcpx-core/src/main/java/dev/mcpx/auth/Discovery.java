package dev.mcpx.auth;

import dev.mcpx.auth.AuthHttp.AuthFailure;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Finds who protects an upstream and how to talk to it: the Protected Resource Metadata
 * (RFC 9728; not in any JVM OAuth library, so written here) and the authorization server's
 * metadata (RFC 8414, then OpenID Connect discovery), in the order the MCP authorization spec
 * gives, the issuer compared exactly.
 */
final class Discovery {

    /** What the resource says of itself. {@code resource} is sent exactly as published. */
    record ProtectedResource(String resource, List<String> authorizationServers, List<String> scopesSupported) {
    }

    /** The fields of an authorization server's metadata the flow uses. */
    record AuthorizationServer(String issuer, URI authorizationEndpoint, URI tokenEndpoint, URI registrationEndpoint,
                               List<String> scopesSupported, List<String> codeChallengeMethods,
                               List<String> tokenEndpointAuthMethods, List<String> grantTypes,
                               boolean issParameterSupported, boolean clientIdMetadataDocuments,
                               List<String> dpopSigningAlgorithms) {
    }

    private final AuthHttp http;

    Discovery(AuthHttp http) {
        this.http = http;
    }

    /**
     * The resource's metadata: from the challenge's {@code resource_metadata}, else the
     * path-aware well-known URI, else the root one. Empty when there is none (a server of the
     * 2025-03-26 revision: its own origin is the authorization server).
     *
     * @throws AuthFailure when the metadata names a resource other than {@code server}
     */
    Optional<ProtectedResource> protectedResource(URI server, Challenge challenge) throws AuthFailure {
        List<URI> candidates = new ArrayList<>();
        if (challenge.resourceMetadata() != null) {
            candidates.add(URI.create(challenge.resourceMetadata()));
        } else {
            String path = trimmedPath(server);
            if (!path.isEmpty()) {
                candidates.add(origin(server).resolve("/.well-known/oauth-protected-resource" + path));
            }
            candidates.add(origin(server).resolve("/.well-known/oauth-protected-resource"));
        }
        for (URI candidate : candidates) {
            Optional<ObjectNode> found = http.getJson(candidate);
            if (found.isPresent()) {
                ObjectNode metadata = found.get();
                String resource = AuthHttp.text(metadata, "resource");
                if (resource == null) {
                    throw new AuthFailure("the protected resource metadata at " + candidate + " names no resource", null);
                }
                if (!covers(URI.create(resource), server)) {
                    throw new AuthFailure("the protected resource metadata at " + candidate + " is for " + resource
                            + ", not for " + server + ": not authorizing (RFC 9728 section 3.3)", null);
                }
                return Optional.of(new ProtectedResource(resource, strings(metadata.path("authorization_servers")),
                        strings(metadata.path("scopes_supported"))));
            }
        }
        return Optional.empty();
    }

    /**
     * The metadata of {@code issuer}: for an issuer with a path, RFC 8414 with the path inserted,
     * OpenID Connect with it inserted, then appended; without one, RFC 8414 then OpenID Connect.
     * A document whose {@code issuer} is not exactly {@code issuer} is refused.
     */
    AuthorizationServer authorizationServer(String issuer) throws AuthFailure {
        URI issuerUrl = URI.create(issuer);
        AuthHttp.requireSecure(issuerUrl, "authorization server");
        String path = trimmedPath(issuerUrl);
        URI origin = origin(issuerUrl);
        List<URI> candidates = path.isEmpty()
                ? List.of(origin.resolve("/.well-known/oauth-authorization-server"),
                        origin.resolve("/.well-known/openid-configuration"))
                : List.of(origin.resolve("/.well-known/oauth-authorization-server" + path),
                        origin.resolve("/.well-known/openid-configuration" + path),
                        origin.resolve(path + "/.well-known/openid-configuration"));
        for (URI candidate : candidates) {
            Optional<ObjectNode> found = http.getJson(candidate);
            if (found.isEmpty()) {
                continue;
            }
            ObjectNode metadata = found.get();
            String published = AuthHttp.text(metadata, "issuer");
            if (!issuer.equals(published)) {
                throw new AuthFailure("the authorization server metadata at " + candidate + " names issuer " + published
                        + ", not " + issuer + ": refused (RFC 8414 section 3.3)", null);
            }
            return parse(issuer, metadata);
        }
        throw new AuthFailure("no authorization server metadata for " + issuer + " (tried " + candidates + ")", null);
    }

    /** The 2025-03-26 fallback: the server's origin serves the default endpoints. */
    static AuthorizationServer defaultEndpoints(URI server) {
        URI origin = origin(server);
        return new AuthorizationServer(origin.toString(), origin.resolve("/authorize"), origin.resolve("/token"),
                origin.resolve("/register"), List.of(), List.of("S256"), List.of("none", "client_secret_basic"),
                List.of("authorization_code", "refresh_token"), false, false, List.of());
    }

    private static AuthorizationServer parse(String issuer, ObjectNode metadata) throws AuthFailure {
        URI authorization = endpoint(metadata, "authorization_endpoint");
        URI token = endpoint(metadata, "token_endpoint");
        URI registration = endpoint(metadata, "registration_endpoint");
        if (token == null) {
            throw new AuthFailure("the authorization server " + issuer + " publishes no token_endpoint", null);
        }
        List<String> authMethods = strings(metadata.path("token_endpoint_auth_methods_supported"));
        return new AuthorizationServer(issuer, authorization, token, registration,
                strings(metadata.path("scopes_supported")), strings(metadata.path("code_challenge_methods_supported")),
                authMethods.isEmpty() ? List.of("client_secret_basic") : authMethods,
                strings(metadata.path("grant_types_supported")),
                metadata.path("authorization_response_iss_parameter_supported").asBoolean(false),
                metadata.path("client_id_metadata_document_supported").asBoolean(false),
                strings(metadata.path("dpop_signing_alg_values_supported")));
    }

    private static URI endpoint(ObjectNode metadata, String field) throws AuthFailure {
        String value = AuthHttp.text(metadata, field);
        if (value == null) {
            return null;
        }
        URI url = URI.create(value);
        AuthHttp.requireSecure(url, field);
        return url;
    }

    /** Whether a token for {@code resource} may be used at {@code server}: same origin, and a path prefix of it. */
    static boolean covers(URI resource, URI server) {
        if (resource.getScheme() == null || resource.getHost() == null || resource.getRawFragment() != null) {
            return false;
        }
        if (!resource.getScheme().equalsIgnoreCase(server.getScheme())
                || !resource.getHost().equalsIgnoreCase(server.getHost()) || port(resource) != port(server)) {
            return false;
        }
        String prefix = trimmedPath(resource);
        String path = trimmedPath(server);
        return prefix.isEmpty() || path.equals(prefix) || path.startsWith(prefix + "/");
    }

    private static int port(URI url) {
        if (url.getPort() >= 0) {
            return url.getPort();
        }
        return "https".equals(url.getScheme().toLowerCase(Locale.ROOT)) ? 443 : 80;
    }

    private static String trimmedPath(URI url) {
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path;
    }

    static URI origin(URI url) {
        return URI.create(url.getScheme() + "://" + url.getRawAuthority() + "/");
    }

    static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(value -> {
                if (value.isString()) {
                    values.add(value.asString());
                }
            });
        }
        return List.copyOf(values);
    }
}

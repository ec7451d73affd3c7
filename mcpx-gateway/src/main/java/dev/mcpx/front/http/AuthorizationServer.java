package dev.mcpx.front.http;

import com.nimbusds.jose.jwk.JWKSet;
import dev.mcpx.config.FrontAuth;
import dev.mcpx.protocol.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The authorization server {@code mcpx.auth} names, as the front finds it: its metadata at the
 * places the MCP authorization spec lists, in its order (RFC 8414, then OpenID Connect), and the
 * signing keys at the metadata's {@code jwks_uri}. The front reads it to check tokens, {@code mcpx
 * doctor} to tell the operator what is wrong before a host finds out.
 */
public final class AuthorizationServer {

    static final Duration FETCH_TIMEOUT = Duration.ofSeconds(10);
    static final int MAX_DOCUMENT_BYTES = 512 * 1024;

    /** The server, or what it says, is not what the front needs; the message says what and where. */
    public static final class Unusable extends Exception {
        Unusable(String message) {
            super(message, null, false, false);
        }
    }

    /** Where the keys are, and where that was read ({@code metadata}: null when mcpx.auth.jwksUri names them). */
    public record Keys(URI jwksUri, URI metadata) {
    }

    private AuthorizationServer() {
    }

    /** The keys' address: mcpx.auth.jwksUri, else the {@code jwks_uri} of the issuer's metadata. */
    public static Keys keys(FrontAuth auth, HttpClient http) throws Unusable {
        if (auth.jwksUri().isPresent()) {
            return new Keys(auth.jwksUri().get(), null);
        }
        List<String> tried = new ArrayList<>();
        for (URI candidate : metadataUrls(URI.create(auth.issuer()))) {
            try {
                HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(candidate).timeout(FETCH_TIMEOUT)
                        .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
                byte[] body;
                try (InputStream in = response.body()) {
                    body = in.readNBytes(MAX_DOCUMENT_BYTES);
                }
                if (response.statusCode() != 200) {
                    tried.add(candidate + " (HTTP " + response.statusCode() + ")");
                    continue;
                }
                JsonNode metadata = Json.parse(new String(body, StandardCharsets.UTF_8));
                if (!auth.issuer().equals(metadata.path("issuer").asString(""))) {
                    tried.add(candidate + " (it names issuer \"" + metadata.path("issuer").asString("") + "\")");
                    continue;
                }
                String jwks = metadata.path("jwks_uri").asString("");
                if (jwks.isEmpty()) {
                    throw new Unusable("the metadata at " + candidate + " has no jwks_uri: set mcpx.auth.jwksUri");
                }
                URI keys = URI.create(jwks);
                boolean local = "http".equals(keys.getScheme()) && keys.getHost() != null
                        && (keys.getHost().equals("localhost") || keys.getHost().startsWith("127."));
                if (!"https".equals(keys.getScheme()) && !local) {
                    throw new Unusable("the metadata at " + candidate + " names jwks_uri " + jwks + ", which is not https");
                }
                return new Keys(keys, candidate);
            } catch (IOException | JacksonException | IllegalArgumentException e) {
                tried.add(candidate + " (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Unusable("interrupted while reading " + candidate);
            }
        }
        throw new Unusable("no metadata for issuer " + auth.issuer() + " names its keys; tried " + String.join(", ", tried));
    }

    /** The key set at {@code jwksUri}, read once (the front's own reader caches and refreshes it). */
    public static JWKSet keySet(URI jwksUri) throws Unusable {
        try {
            return JWKSet.load(jwksUri.toURL(), (int) FETCH_TIMEOUT.toMillis(), (int) FETCH_TIMEOUT.toMillis(),
                    MAX_DOCUMENT_BYTES);
        } catch (IOException | ParseException | IllegalArgumentException e) {
            throw new Unusable("the keys at " + jwksUri + " cannot be read: " + e.getMessage());
        }
    }

    /** RFC 8414 section 3.1 and OpenID Connect discovery, in the MCP authorization spec's order. */
    static List<URI> metadataUrls(URI issuer) {
        String origin = issuer.getScheme() + "://" + issuer.getRawAuthority();
        String path = issuer.getRawPath() == null ? "" : issuer.getRawPath().replaceAll("/+$", "");
        if (path.isEmpty()) {
            return List.of(URI.create(origin + "/.well-known/oauth-authorization-server"),
                    URI.create(origin + "/.well-known/openid-configuration"));
        }
        return List.of(URI.create(origin + "/.well-known/oauth-authorization-server" + path),
                URI.create(origin + "/.well-known/openid-configuration" + path),
                URI.create(origin + path + "/.well-known/openid-configuration"));
    }
}

package dev.mcpx.cli;

import dev.mcpx.auth.AuthorizationStep;
import dev.mcpx.auth.IdentityAssertion;
import dev.mcpx.auth.IdentityProvider;
import dev.mcpx.auth.OAuthClient;
import dev.mcpx.auth.OAuthSettings;
import dev.mcpx.auth.SigningKey;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.NeedsLoginException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OAuth client of the conformance client: the suite's authorization servers approve at once
 * and redirect, so the user agent is one GET whose redirect is read, not followed. The client's
 * configuration (a pre-registered client, the grant) comes from the scenario's context, as a
 * user's would come from their config.
 */
final class ConformanceAuthorization implements AuthorizationStep {

    /** The client ID metadata document URL the suite expects a CIMD client to use. */
    static final String CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
    private static final URI REDIRECT = URI.create("http://localhost:3000/callback");

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10)).build();

    static OAuthClient client(ConformanceEnvironment env, URI server) {
        ObjectNode context = env.context();
        OAuthSettings settings = OAuthSettings.defaults().withClientMetadataUrl(CLIENT_METADATA_URL);
        String clientId = Json.text(context, "client_id");
        if (clientId != null) {
            settings = settings.withClient(clientId, Json.text(context, "client_secret"), null,
                    Json.text(context, "issuer"));
        }
        String privateKey = Json.text(context, "private_key_pem");
        if (privateKey != null) {
            settings = settings.withClientKey(SigningKey.fromPem(privateKey, Json.text(context, "signing_algorithm"), null));
        }
        if (env.scenario().startsWith("auth/client-credentials")) {
            settings = settings.withGrant(OAuthSettings.Grant.CLIENT_CREDENTIALS);
        }
        // a workload's own JWT (workload identity federation)
        String workloadJwt = Json.text(context, "valid_jwt");
        if (workloadJwt != null) {
            settings = settings.withGrant(OAuthSettings.Grant.JWT_BEARER, IdentityAssertion.of(workloadJwt), null);
        }
        // the user's ID token from the enterprise's identity provider (enterprise-managed authorization)
        String idToken = Json.text(context, "idp_id_token");
        String idpTokenEndpoint = Json.text(context, "idp_token_endpoint");
        String idpClientId = Json.text(context, "idp_client_id");
        if (idToken != null && idpTokenEndpoint != null && idpClientId != null) {
            settings = settings.withGrant(OAuthSettings.Grant.ENTERPRISE_MANAGED, IdentityAssertion.of(idToken),
                    new IdentityProvider(URI.create(idpTokenEndpoint), idpClientId, null));
        }
        return OAuthClient.builder(server).name(env.scenario()).settings(settings)
                .authorizationStep(new ConformanceAuthorization()).build();
    }

    @Override
    public URI redirectUri() {
        return REDIRECT;
    }

    @Override
    public URI authorize(URI authorizationUrl) {
        try {
            HttpResponse<Void> response = http.send(HttpRequest.newBuilder(authorizationUrl).GET()
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding());
            String location = response.headers().firstValue("Location").orElseThrow(() -> new NeedsLoginException(
                    "the authorization endpoint answered HTTP " + response.statusCode() + " without a redirect", null));
            return authorizationUrl.resolve(location);
        } catch (IOException e) {
            throw new NeedsLoginException("the authorization endpoint failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NeedsLoginException("interrupted at the authorization endpoint", e);
        }
    }
}

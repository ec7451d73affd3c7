package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.Profile;
import dev.mcpx.catalogue.Profiles;
import dev.mcpx.config.ConfigLoader;
import dev.mcpx.config.FrontAuth;
import dev.mcpx.config.FrontToken;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.Limits;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.testkit.OAuthServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The HTTP front as an OAuth protected resource, against a real authorization server
 * (oauth2-mock-server, RS256 JWTs and a JWKS): the 401's metadata leads a client to the server,
 * its tokens are served with the profile their claim names (both eras), and a token that is
 * expired, for another audience, from another issuer or badly signed is refused with 401.
 */
class OAuthFrontTest {

    private static final Profile REVIEW = new Profile("review", List.of("one"), CatalogueFilter.NONE, Profile.Search.OFF);
    private static final Profile OPS = new Profile("ops", List.of("two"), CatalogueFilter.NONE, Profile.Search.OFF);
    private static final Pattern RESOURCE_METADATA = Pattern.compile("resource_metadata=\"([^\"]+)\"");

    @TempDir
    Path dir;

    private OAuthServer authorizationServer;
    private OAuthServer otherServer;
    private Gateway gateway;
    private HttpFront front;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() {
        authorizationServer = OAuthServer.start(NodeTools.require());
        gateway = Gateway.start(new GatewayConfig(Optional.empty(), List.of(fake("one"), fake("two")), List.of(),
                Optional.empty(), Limits.DEFAULTS, Optional.empty(), new Profiles(Profile.WHOLE,
                Map.of("review", REVIEW, "ops", OPS))), TestGateways.settings(), Map.of());
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> gateway.catalogue().tool("one__echo").isPresent()
                && gateway.catalogue().tool("two__echo").isPresent());
    }

    @AfterEach
    void stop() {
        if (front != null) {
            front.close();
        }
        gateway.close();
        authorizationServer.close();
        if (otherServer != null) {
            otherServer.close();
        }
    }

    @Test
    void withoutATokenTheAnswerIs401AndItsMetadataLeadsToTheAuthorizationServer() throws Exception {
        startFront(Optional.of("mcpx_profile"));
        for (String path : List.of("/mcp", "/mcp/review")) {
            URI endpoint = front.mcpUri().resolve(path);
            HttpResponse<String> refused = post(endpoint, null);

            assertThat(refused.statusCode()).isEqualTo(401);
            String challenge = refused.headers().firstValue("WWW-Authenticate").orElseThrow();
            assertThat(challenge).startsWith("Bearer ").contains("scope=\"mcp\"").doesNotContain("error=");
            Matcher metadataUrl = RESOURCE_METADATA.matcher(challenge);
            assertThat(metadataUrl.find()).as(challenge).isTrue();
            assertThat(metadataUrl.group(1)).isEqualTo(front.mcpUri().resolve("/.well-known/oauth-protected-resource" + path)
                    .toString());

            JsonNode metadata = getJson(URI.create(metadataUrl.group(1)));
            assertThat(metadata.path("resource").asString()).isEqualTo(endpoint.toString());
            assertThat(metadata.path("authorization_servers").path(0).asString())
                    .isEqualTo(authorizationServer.issuer().toString());
            assertThat(metadata.path("scopes_supported").path(0).asString()).isEqualTo("mcp");
            JsonNode server = getJson(URI.create(metadata.path("authorization_servers").path(0).asString()
                    + "/.well-known/openid-configuration"));
            assertThat(server.path("issuer").asString()).isEqualTo(authorizationServer.issuer().toString());
            assertThat(server.path("token_endpoint").asString()).startsWith(authorizationServer.issuer().toString());
        }
        assertThat(getJson(front.mcpUri().resolve("/.well-known/oauth-protected-resource")).path("resource").asString())
                .isEqualTo(front.mcpUri().toString());
        assertThat(http.send(HttpRequest.newBuilder(front.mcpUri().resolve("/.well-known/oauth-protected-resource/mcp/nope"))
                .GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }

    @Test
    void twoTokensWithTwoProfileClaimsSeeTheirOwnCataloguesAndCannotCallEachOthersToolsInBothEras() throws Exception {
        startFront(Optional.of("mcpx_profile"));
        String alice = token(front.mcpUri(), Map.of("mcpx_profile", "review"));
        String bob = token(front.mcpUri(), Map.of("mcpx_profile", "ops"));
        for (boolean modern : List.of(false, true)) {
            HttpHost review = host(modern, front.mcpUri(), alice);
            HttpHost ops = host(modern, front.mcpUri(), bob);

            assertThat(ProfilesTest.toolNames(review.request("tools/list", null).reply()))
                    .contains("one__echo").noneMatch(name -> name.startsWith("two__"));
            assertThat(ProfilesTest.toolNames(ops.request("tools/list", null).reply()))
                    .contains("two__echo").noneMatch(name -> name.startsWith("one__"));
            assertThat(review.call("two__echo", Json.object().put("text", "hi")).reply().path("error").path("message")
                    .asString()).isEqualTo("Unknown tool: two__echo");
            assertThat(ops.call("one__echo", Json.object().put("text", "hi")).reply().path("error").path("message")
                    .asString()).isEqualTo("Unknown tool: one__echo");
            assertThat(review.call("one__echo", Json.object().put("text", "hi")).text()).isEqualTo("Echo: hi");
            assertThat(ops.call("two__echo", Json.object().put("text", "hi")).text()).isEqualTo("Echo: hi");
        }
        assertThat(executions("one")).isEqualTo(2);
        assertThat(executions("two")).isEqualTo(2);

        HttpResponse<String> crossed = post(front.mcpUri().resolve("/mcp/ops"), alice);
        assertThat(crossed.statusCode()).isEqualTo(403);
        assertThat(crossed.body()).contains("mcpx_profile", "review");
        HttpResponse<String> unknown = post(front.mcpUri(), token(front.mcpUri(), Map.of("mcpx_profile", "nope")));
        assertThat(unknown.statusCode()).isEqualTo(403);
        assertThat(unknown.body()).contains("names profile \\\"nope\\\", which is not configured");
        HttpResponse<String> unclaimed = post(front.mcpUri(), token(front.mcpUri(), Map.of()));
        assertThat(unclaimed.statusCode()).isEqualTo(403);
        assertThat(unclaimed.body()).contains("no \\\"mcpx_profile\\\" claim");
        assertThat(post(front.mcpUri().resolve("/mcp/ops"), "team-secret").statusCode())
                .as("a configured token still works beside OAuth").isEqualTo(200);
    }

    @Test
    void aTokenThatIsExpiredForAnotherAudienceFromAnotherIssuerOrBadlySignedIs401() throws Exception {
        startFront(Optional.of("mcpx_profile"));
        URI resource = front.mcpUri();
        String valid = token(resource, Map.of("mcpx_profile", "review"));
        assertThat(post(resource, valid).statusCode()).isEqualTo(200);
        otherServer = OAuthServer.start(NodeTools.require());
        long longAgo = Instant.now().minusSeconds(600).getEpochSecond();

        Map<String, String> refused = Map.of(
                "expired", token(resource, Map.of("mcpx_profile", "review", "exp", Long.toString(longAgo))),
                "for another audience", token(URI.create("https://other.example/mcp"), Map.of("mcpx_profile", "review")),
                "from another issuer", token(resource, Map.of("mcpx_profile", "review", "iss", "https://other.example")),
                "with a forged signature", forged(valid),
                "signed by a key the issuer never published", otherServer.accessToken(resource.toString(),
                        Map.of("mcpx_profile", "review", "iss", authorizationServer.issuer().toString())),
                "not a JWT", "team-secrets");
        refused.forEach((what, token) -> {
            for (String path : List.of("/mcp", "/mcp/review")) {
                HttpResponse<String> answer = uncheckedPost(resource.resolve(path), token);
                // the tokens in the message: a forged one was once answered 200 and could not be reproduced
                assertThat(answer.statusCode()).as(what + " at " + path + ": " + answer.body() + "; token " + token
                        + "; the valid one it came from " + valid).isEqualTo(401);
                assertThat(answer.headers().firstValue("WWW-Authenticate").orElse(""))
                        .as(what).contains("error=\"invalid_token\"", "resource_metadata=\"");
            }
        });
        assertThat(refusedReason(refused.get("expired"))).contains("expired");
        assertThat(refusedReason(refused.get("for another audience"))).contains("not for this resource");
        assertThat(refusedReason(refused.get("from another issuer"))).contains("not from this resource's authorization server");
        assertThat(refusedReason(refused.get("with a forged signature"))).contains("signature");

        HttpResponse<String> narrow = post(resource, token(resource, Map.of("mcpx_profile", "review", "scope", "other")));
        assertThat(narrow.statusCode()).isEqualTo(403);
        assertThat(narrow.headers().firstValue("WWW-Authenticate").orElse(""))
                .contains("error=\"insufficient_scope\"", "scope=\"mcp\"");
        assertThat(executions("one") + executions("two")).isZero();
    }

    @Test
    void everyRequestOfALegacySessionIsCheckedAndARenewedTokenKeepsTheSession() throws Exception {
        startFront(Optional.of("mcpx_profile"));
        HttpHost host = host(false, front.mcpUri(), token(front.mcpUri(), Map.of("mcpx_profile", "review")));
        String session = host.sessionId();

        HttpHost withoutToken = HttpHost.legacy(front.mcpUri());
        withoutToken.sessionId(session);
        assertThat(withoutToken.request("tools/list", null).status()).isEqualTo(401);
        HttpHost renewed = HttpHost.legacy(front.mcpUri())
                .headers(Map.of("Authorization", "Bearer " + token(front.mcpUri(), Map.of("mcpx_profile", "review"))));
        renewed.sessionId(session);
        assertThat(ProfilesTest.toolNames(renewed.request("tools/list", null).reply())).contains("one__echo");
        HttpHost otherProfile = HttpHost.legacy(front.mcpUri())
                .headers(Map.of("Authorization", "Bearer " + token(front.mcpUri(), Map.of("mcpx_profile", "ops"))));
        otherProfile.sessionId(session);
        assertThat(otherProfile.request("tools/list", null).status()).as("the session belongs to review").isEqualTo(404);
    }

    @Test
    void aTokenForAProfilesOwnResourceIsServedThereButNotOnTheWholeGateway() throws Exception {
        startFront(Optional.empty());
        URI review = front.mcpUri().resolve("/mcp/review");
        String forReview = token(review, Map.of());

        assertThat(post(review, forReview).statusCode()).isEqualTo(200);
        assertThat(post(front.mcpUri(), forReview).statusCode()).isEqualTo(401);
        assertThat(post(review, token(front.mcpUri(), Map.of())).statusCode())
                .as("a token for the whole gateway is good on its profiles' paths").isEqualTo(200);
    }

    @Test
    void aRotatedSigningKeyIsFetchedWhenATokenFirstNamesIt() throws Exception {
        startFront(Optional.of("mcpx_profile"));
        String before = token(front.mcpUri(), Map.of("mcpx_profile", "review"));
        assertThat(post(front.mcpUri(), before).statusCode()).isEqualTo(200);

        authorizationServer.rotateKey();
        String rotated = token(front.mcpUri(), Map.of("mcpx_profile", "review"));
        if (kid(rotated).equals(kid(before))) {
            rotated = token(front.mcpUri(), Map.of("mcpx_profile", "review"));
        }

        assertThat(kid(rotated)).isNotEqualTo(kid(before));
        HttpResponse<String> answer = post(front.mcpUri(), rotated);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    @Test
    void anMcpxGatewayAsTheHostFollowsTheChallengeToTheAuthorizationServerAndIsServedItsProfile() throws Exception {
        startFront(Optional.empty());
        String json = Json.write(Json.object().set("mcpServers", Json.object().set("team", Json.object()
                .put("url", front.mcpUri().resolve("/mcp/review").toString())
                .set("oauth", Json.object().put("grant", "client_credentials").put("client_id", "gateway-b")
                        .put("client_secret", "b-secret")))));
        GatewayConfig config = new ConfigLoader(Map.of()).parse(json, dir.resolve("b.json"));

        try (Gateway downstream = Gateway.start(config, TestGateways.settings(), Map.of("MCPX_HOME", dir.resolve("b").toString()))) {
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> downstream.catalogue().tool("team__one__echo").isPresent());
            assertThat(downstream.catalogue().tool("team__two__echo")).isEmpty();
        }
        assertThat(authorizationServer.tokenRequests("client_credentials")).as(authorizationServer.log()).isEqualTo(1);
        assertThat(authorizationServer.log()).contains("resource=" + front.mcpUri().resolve("/mcp/review"));
    }

    @Test
    void whileTheAuthorizationServersKeysCannotBeFoundRequestsAre503AndNotLetThrough() throws Exception {
        startFront(Optional.of("mcpx_profile"));
        String valid = token(front.mcpUri(), Map.of("mcpx_profile", "review"));
        authorizationServer.close();

        HttpResponse<String> answer = post(front.mcpUri(), valid);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
        assertThat(answer.body()).contains("access tokens cannot be checked now", authorizationServer.issuer().toString());
        assertThat(post(front.mcpUri(), "team-secret").statusCode()).as("configured tokens do not depend on it").isEqualTo(200);
    }

    @Test
    void whileTheConfiguredKeysCannotBeReadEveryRequestIs503NotTheRateLimitsInvalidToken() throws Exception {
        startFront(Optional.of("mcpx_profile"), Optional.of(authorizationServer.issuer().resolve("/jwks")));
        String valid = token(front.mcpUri(), Map.of("mcpx_profile", "review"));
        authorizationServer.close();

        for (int attempt = 1; attempt <= 4; attempt++) {
            HttpResponse<String> answer = post(front.mcpUri(), valid);
            assertThat(answer.statusCode()).as("attempt " + attempt + ": " + answer.body()).isEqualTo(503);
        }
    }

    private String refusedReason(String token) {
        return uncheckedPost(front.mcpUri(), token).body();
    }

    private void startFront(Optional<String> profileClaim) throws Exception {
        startFront(profileClaim, Optional.empty());
    }

    private void startFront(Optional<String> profileClaim, Optional<URI> jwksUri) throws Exception {
        FrontAuth auth = new FrontAuth(authorizationServer.issuer().toString(), Optional.empty(), List.of(), jwksUri,
                profileClaim, List.of("mcp"));
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), new HttpSecurity(
                List.of(new FrontToken("team", "team-secret", FrontToken.Scope.ALL)), Optional.empty(), false,
                Optional.of(auth)), Duration.ofMillis(200));
    }

    private String token(URI resource, Map<String, String> claims) {
        return authorizationServer.accessToken(resource.toString(), claims);
    }

    /** The same header and claims with another signature of the same length. */
    private static String forged(String token) {
        String[] parts = token.split("\\.");
        char[] signature = parts[2].toCharArray();
        int middle = signature.length / 2;
        signature[middle] = signature[middle] == 'A' ? 'B' : 'A';
        return parts[0] + "." + parts[1] + "." + new String(signature);
    }

    private static String kid(String token) {
        String header = new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), StandardCharsets.UTF_8);
        return Json.parse(header).path("kid").asString();
    }

    private static HttpHost host(boolean modern, URI uri, String token) throws Exception {
        HttpHost host = (modern ? HttpHost.modern(uri) : HttpHost.legacy(uri)).headers(Map.of("Authorization", "Bearer " + token));
        if (!modern) {
            assertThat(host.initialize().status()).isEqualTo(200);
        }
        return host;
    }

    private HttpResponse<String> uncheckedPost(URI uri, String token) {
        try {
            return post(uri, token);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> post(URI uri, String token) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/list")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode getJson(URI uri) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(uri + ": " + response.body()).isEqualTo(200);
        return Json.parse(response.body());
    }

    private UpstreamConfig fake(String name) {
        return TestGateways.fake(name, "--ledger", dir.resolve(name + ".ledger").toString());
    }

    private long executions(String name) throws IOException {
        Path ledger = dir.resolve(name + ".ledger");
        return Files.exists(ledger) ? Files.readAllLines(ledger).stream().filter("echo"::equals).count() : 0;
    }
}

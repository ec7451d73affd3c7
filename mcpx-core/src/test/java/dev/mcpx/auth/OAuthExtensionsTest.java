package dev.mcpx.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.protocol.AuthorizationRequiredException;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.NeedsLoginException;
import dev.mcpx.testkit.Jws;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The OAuth extensions end to end over loopback: a real McpClient, the testkit's protected
 * upstream, and a small authorization server that checks what each extension must send (JWS
 * checked with the JDK alone, not with the library that signed them).
 */
class OAuthExtensionsTest {

    @TempDir
    Path dir;

    private TestAuthorizationServer authorizationServer;
    private ModernHttpUpstream upstream;
    private final TokenStore store = TokenStore.inMemory();

    @BeforeEach
    void start() {
        authorizationServer = new TestAuthorizationServer();
        upstream = ModernHttpUpstream.start();
    }

    @AfterEach
    void stop() {
        upstream.close();
        authorizationServer.close();
    }

    @Test
    void privateKeyJwtSignsAFreshAssertionForTheIssuerOnEveryTokenRequest() throws Exception {
        upstream.requireBearer(authorizationServer.issuer());
        KeyPair pair = ecKeyPair();
        authorizationServer.authMethods("private_key_jwt");
        OAuthSettings settings = OAuthSettings.defaults().withClient("svc-1", null, null, null)
                .withClientKey(SigningKey.fromPem(pem(pair), null, null)).withGrant(OAuthSettings.Grant.CLIENT_CREDENTIALS);

        try (McpClient client = client(settings).connect()) {
            call(client);
            upstream.expireTokensSeen();
            call(client);
        }

        assertThat(authorizationServer.grantTypes()).containsExactly("client_credentials", "client_credentials");
        List<String> jtis = authorizationServer.tokenRequests.stream().map(request -> {
            assertThat(request.form("client_assertion_type")).isEqualTo(ClientIdentity.JWT_BEARER_ASSERTION);
            assertThat(request.form("client_secret")).isNull();
            assertThat(request.header("authorization")).isNull();
            String assertion = request.form("client_assertion");
            assertThat(Jws.verifies(assertion, pair.getPublic())).as("signed by the client's key").isTrue();
            assertThat(Jws.header(assertion).path("alg").asString()).isEqualTo("ES256");
            JsonNode claims = Jws.claims(assertion);
            assertThat(claims.path("iss").asString()).isEqualTo("svc-1");
            assertThat(claims.path("sub").asString()).isEqualTo("svc-1");
            assertThat(claims.path("aud").toString()).contains(authorizationServer.issuer().toString());
            assertThat(claims.path("exp").asLong()).isGreaterThan(System.currentTimeMillis() / 1000);
            return claims.path("jti").asString();
        }).toList();
        assertThat(jtis).doesNotHaveDuplicates();
    }

    @Test
    void aRefusedClientAssertionSurfacesTheAuthorizationServersAnswerOnce() throws Exception {
        upstream.requireBearer(authorizationServer.issuer());
        KeyPair registered = ecKeyPair();
        authorizationServer.authMethods("private_key_jwt").check(request ->
                Jws.verifies(request.form("client_assertion"), registered.getPublic()) ? null : "invalid_client");
        OAuthSettings settings = OAuthSettings.defaults().withClient("svc-1", null, null, null)
                .withClientKey(SigningKey.fromPem(pem(ecKeyPair()), null, null))
                .withGrant(OAuthSettings.Grant.CLIENT_CREDENTIALS);

        assertThatThrownBy(() -> client(settings).connect()).isInstanceOf(NeedsLoginException.class)
                .hasMessageContaining("invalid_client");
        assertThat(authorizationServer.tokenRequests).hasSize(1);
    }

    @Test
    void theJwtBearerGrantPresentsTheWorkloadJwtAsItsFileSaysNow() throws Exception {
        upstream.requireBearer(authorizationServer.issuer());
        authorizationServer.grants(OAuthClient.JWT_BEARER).authMethods("none");
        Path token = dir.resolve("workload.jwt");
        Files.writeString(token, "workload-jwt-1\n", StandardCharsets.UTF_8);
        OAuthSettings settings = OAuthSettings.defaults()
                .withGrant(OAuthSettings.Grant.JWT_BEARER, IdentityAssertion.file(token), null);

        try (McpClient client = client(settings).connect()) {
            call(client);
            Files.writeString(token, "workload-jwt-2\n", StandardCharsets.UTF_8);
            upstream.expireTokensSeen();
            call(client);
        }

        assertThat(authorizationServer.tokenRequests).extracting(request -> request.form("assertion"))
                .containsExactly("workload-jwt-1", "workload-jwt-2");
        assertThat(authorizationServer.grantTypes()).containsOnly(OAuthClient.JWT_BEARER);
        assertThat(authorizationServer.tokenRequests).allSatisfy(request -> {
            assertThat(request.form("resource")).isEqualTo(upstream.url().toString());
            assertThat(request.form("client_id")).as("no client configured: the assertion says who asks").isNull();
        });
    }

    @Test
    void aRefusedJwtBearerGrantIsNeitherRetriedNorReplacedByAnotherGrant() {
        upstream.requireBearer(authorizationServer.issuer());
        authorizationServer.grants(OAuthClient.JWT_BEARER).authMethods("none").check(request -> "invalid_grant");
        OAuthSettings settings = OAuthSettings.defaults().withClient("workload", null, "none", null)
                .withGrant(OAuthSettings.Grant.JWT_BEARER, IdentityAssertion.of("expired-jwt"), null);

        assertThatThrownBy(() -> client(settings).connect()).isInstanceOf(NeedsLoginException.class)
                .hasMessageContaining("invalid_grant");
        assertThat(authorizationServer.grantTypes()).containsExactly(OAuthClient.JWT_BEARER);
        assertThat(authorizationServer.tokenRequests.getFirst().form("client_id")).isEqualTo("workload");
    }

    @Test
    void enterpriseManagedAuthorizationExchangesTheIdTokenAtTheIdpThenPresentsTheIdJag() throws Exception {
        upstream.requireBearer(authorizationServer.issuer());
        authorizationServer.grants(OAuthClient.JWT_BEARER).authMethods("client_secret_basic");
        OAuthSettings settings = OAuthSettings.defaults().withClient("mcpx-at-as", "as-secret", null, null)
                .withGrant(OAuthSettings.Grant.ENTERPRISE_MANAGED, IdentityAssertion.of("the-users-id-token"),
                        new IdentityProvider(authorizationServer.idpTokenEndpoint(), "mcpx-at-idp", null));

        try (McpClient client = client(settings).connect()) {
            call(client);
        }

        assertThat(authorizationServer.idpRequests).singleElement().satisfies(exchange -> {
            assertThat(exchange.form()).containsEntry("grant_type", OAuthClient.TOKEN_EXCHANGE)
                    .containsEntry("requested_token_type", OAuthClient.ID_JAG)
                    .containsEntry("subject_token", "the-users-id-token")
                    .containsEntry("subject_token_type", OAuthClient.ID_TOKEN)
                    .containsEntry("audience", authorizationServer.issuer().toString())
                    .containsEntry("resource", upstream.url().toString())
                    .containsEntry("client_id", "mcpx-at-idp");
        });
        assertThat(authorizationServer.tokenRequests).singleElement().satisfies(grant -> {
            assertThat(grant.form()).containsEntry("grant_type", OAuthClient.JWT_BEARER)
                    .containsEntry("assertion", "id-jag-1");
            assertThat(grant.header("authorization")).isEqualTo("Basic " + Base64.getEncoder()
                    .encodeToString("mcpx-at-as:as-secret".getBytes(StandardCharsets.UTF_8)));
        });
    }

    @Test
    void dpopBindsTheTokenAndProvesItOnEveryRequestWithTheNoncesBothServersAskFor() throws Exception {
        upstream.requireDpop(authorizationServer.issuer(), "rs-nonce");
        authorizationServer.dpop("as-nonce");

        try (McpClient client = client(machine()).connect()) {
            for (int i = 0; i < 3; i++) {
                call(client);
            }
        }

        assertThat(upstream.dpopProblems()).isEmpty();
        // the first token request is asked for the nonce, the second carries it: one retry
        assertThat(authorizationServer.tokenRequests).hasSize(2);
        assertThat(Jws.claims(authorizationServer.tokenRequests.get(1).header("dpop")).path("nonce").asString())
                .isEqualTo("as-nonce");
        // the resource asked once; every later request carried its nonce
        assertThat(upstream.dpopNonceChallenges()).isEqualTo(1);
        assertThat(upstream.executions("plain_tool")).isEqualTo(3);
    }

    @Test
    void aResourceThatKeepsAskingForANewNonceGetsOneRetryPerRequestNotALoop() {
        upstream.requireDpop(authorizationServer.issuer(), "rs-nonce").rotateDpopNonce();
        authorizationServer.dpop(null);

        assertThatThrownBy(() -> client(machine()).connect()).isInstanceOf(AuthorizationRequiredException.class)
                .satisfies(refused -> assertThat(((AuthorizationRequiredException) refused).asksForDpopNonce()).isTrue());
        assertThat(upstream.dpopNonceChallenges()).as("the first proof, and the one retry with its nonce").isEqualTo(2);
        assertThat(upstream.dpopProblems()).isEmpty();
    }

    @Test
    void aNonceTheResourceRotatesInItsSuccessfulAnswersIsCarriedNextWithoutARefusal() throws Exception {
        upstream.requireDpop(authorizationServer.issuer(), "rs-nonce").rotateDpopNonceOnSuccess();
        authorizationServer.dpop(null);

        try (McpClient client = client(machine()).connect()) {
            call(client);
            int afterFirstCall = upstream.dpopNonceChallenges();
            for (int i = 0; i < 4; i++) {
                call(client);
            }
            assertThat(upstream.dpopNonceChallenges() - afterFirstCall)
                    .as("use_dpop_nonce retries while the nonce rotates through successful answers").isZero();
        }

        assertThat(upstream.dpopNonceChallenges()).as("only the first proof, before any nonce was given").isEqualTo(1);
        assertThat(upstream.dpopProblems()).isEmpty();
        assertThat(upstream.executions("plain_tool")).isEqualTo(5);
    }

    @Test
    void aBoundTokenIsStoredWithItsKeySoAnotherProcessUsesItWithoutATokenRequest() throws Exception {
        upstream.requireDpop(authorizationServer.issuer(), null);
        authorizationServer.dpop(null);
        try (McpClient first = client(machine()).connect()) {
            call(first);
        }
        assertThat(authorizationServer.tokenRequests).hasSize(1);

        try (McpClient second = client(machine()).connect()) {
            call(second);
        }

        assertThat(authorizationServer.tokenRequests).as("the stored token and key were enough").hasSize(1);
        assertThat(upstream.dpopProblems()).isEmpty();
    }

    @Test
    void aBoundRefreshTokenIsRefreshedWithAProofOfTheSameKey() throws Exception {
        upstream.requireDpop(authorizationServer.issuer(), null);
        authorizationServer.dpop(null).refreshTokens().grants("client_credentials", "refresh_token");

        try (McpClient client = client(machine()).connect()) {
            call(client);
            upstream.expireTokensSeen();
            call(client);
        }

        assertThat(authorizationServer.grantTypes()).containsExactly("client_credentials", "refresh_token");
        List<String> keys = authorizationServer.tokenRequests.stream()
                .map(request -> Jws.thumbprint(Jws.header(request.header("dpop")).path("jwk"))).toList();
        assertThat(keys.get(1)).as("the refresh proves the key the tokens are bound to").isEqualTo(keys.get(0));
        assertThat(upstream.dpopProblems()).isEmpty();
    }

    @Test
    void dpopOffMeansBearerTokensEvenWhereTheServerOffersDpop() throws Exception {
        upstream.requireBearer(authorizationServer.issuer());
        authorizationServer.dpop(null);

        try (McpClient client = client(machine().withDpop(OAuthSettings.Dpop.NEVER)).connect()) {
            call(client);
        }

        assertThat(authorizationServer.tokenRequests).singleElement()
                .satisfies(request -> assertThat(request.header("dpop")).isNull());
    }

    private static OAuthSettings machine() {
        return OAuthSettings.defaults().withClient("svc-1", "svc-secret", null, null)
                .withGrant(OAuthSettings.Grant.CLIENT_CREDENTIALS);
    }

    private McpClient client(OAuthSettings settings) {
        OAuthClient oauth = OAuthClient.builder(upstream.url()).name("protected").settings(settings).store(store).build();
        return McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.AUTO)
                .withAuthorization(oauth)).requestTimeout(Duration.ofSeconds(20)).build();
    }

    private static void call(McpClient client) {
        JsonNode result = client.callTool("plain_tool", Json.object(), RequestOptions.defaults());
        assertThat(result.path("isError").asBoolean(false)).as(result.toString()).isFalse();
    }

    static KeyPair ecKeyPair() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    static String pem(KeyPair pair) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }
}

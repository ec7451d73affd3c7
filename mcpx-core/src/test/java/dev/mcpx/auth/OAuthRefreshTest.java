package dev.mcpx.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.NeedsLoginException;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.testkit.OAuthServer;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The third stale case against a real authorization server (oauth2-mock-server): a token the
 * upstream no longer takes is refreshed once for every request refused it, each retried once;
 * a refresh that cannot happen is "needs login", after exactly one refused attempt.
 */
class OAuthRefreshTest {

    private OAuthServer authorizationServer;
    private ModernHttpUpstream upstream;
    private final TokenStore store = TokenStore.inMemory();

    @BeforeEach
    void start() {
        authorizationServer = OAuthServer.start(NodeTools.require());
        upstream = ModernHttpUpstream.start().requireBearer(authorizationServer.issuer());
    }

    @AfterEach
    void stop() {
        upstream.close();
        authorizationServer.close();
    }

    @Test
    void concurrentCallsRefusedTheSameTokenShareOneRefreshAndAllSucceed() throws Exception {
        try (McpClient client = client(new Approving()).connect()) {
            assertThat(authorizationServer.tokenRequests("authorization_code")).isEqualTo(1);
            upstream.expireTokensSeen();
            int refusedBefore = upstream.unauthorized();

            List<Future<JsonNode>> calls = new ArrayList<>();
            try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 8; i++) {
                    calls.add(threads.submit(() -> client.callTool("plain_tool", Json.object(), RequestOptions.defaults())));
                }
            }
            for (Future<JsonNode> call : calls) {
                assertThat(call.get().path("isError").asBoolean(false)).isFalse();
            }
            assertThat(authorizationServer.tokenRequests("refresh_token")).as(authorizationServer.log()).isEqualTo(1);
            assertThat(upstream.executions("plain_tool")).isEqualTo(8);
            assertThat(upstream.unauthorized() - refusedBefore).isBetween(1, 8);
        }
    }

    @Test
    void aRefreshThatFailsIsNeedsLoginAfterOneRefusedAttemptNeverALoop() throws Exception {
        try (McpClient client = client(new Approving()).connect()) {
            upstream.expireTokensSeen();
            authorizationServer.close();
            int refusedBefore = upstream.unauthorized();

            McpClient withoutUser = McpClient.builder(endpoint(null)).requestTimeout(Duration.ofSeconds(20)).build();
            assertThatThrownBy(withoutUser::connect).isInstanceOf(NeedsLoginException.class)
                    .hasMessageContaining("refresh");
            assertThat(upstream.unauthorized() - refusedBefore).as("one refused attempt, no retry loop").isEqualTo(1);
            assertThat(client.isOpen()).isTrue();
        }
    }

    private McpClient client(AuthorizationStep step) {
        return McpClient.builder(endpoint(step)).requestTimeout(Duration.ofSeconds(20)).build();
    }

    private UpstreamEndpoint.Http endpoint(AuthorizationStep step) {
        OAuthClient oauth = OAuthClient.builder(upstream.url()).name("protected")
                .settings(OAuthSettings.defaults().withClient("mcpx-test", null, null, null))
                .store(store).authorizationStep(step).build();
        return new UpstreamEndpoint.Http(upstream.url(), java.util.Map.of(), UpstreamEndpoint.HttpKind.AUTO)
                .withAuthorization(oauth);
    }

    /** A user agent whose user approves: one GET of the authorization URL, its redirect read. */
    private static final class Approving implements AuthorizationStep {
        private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

        @Override
        public URI redirectUri() {
            return URI.create("http://127.0.0.1:1/callback");
        }

        @Override
        public URI authorize(URI authorizationUrl) {
            try {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(authorizationUrl).build(),
                        HttpResponse.BodyHandlers.discarding());
                return URI.create(response.headers().firstValue("Location").orElseThrow());
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}

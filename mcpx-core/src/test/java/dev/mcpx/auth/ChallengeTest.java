package dev.mcpx.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChallengeTest {

    @Test
    void readsQuotedAndBareParametersOfABearerChallenge() {
        Challenge challenge = Challenge.parse("Bearer error=\"insufficient_scope\", scope=\"mcp:read mcp:write\","
                + " resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\"");

        assertThat(challenge.insufficientScope()).isTrue();
        assertThat(challenge.scope()).isEqualTo("mcp:read mcp:write");
        assertThat(challenge.resourceMetadata()).isEqualTo("https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
    }

    @Test
    void aChallengeWithoutParametersOrNoneAtAllGivesNothing() {
        assertThat(Challenge.parse("Bearer")).isEqualTo(Challenge.NONE);
        assertThat(Challenge.parse(null)).isEqualTo(Challenge.NONE);
        assertThat(Challenge.parse("Bearer realm=example, error=invalid_token").error()).isEqualTo("invalid_token");
    }

    @Test
    void pkceS256IsTheUnpaddedBase64urlSha256OfTheVerifier() {
        // computed independently: base64.urlsafe_b64encode(hashlib.sha256(verifier).digest()).rstrip("=")
        assertThat(OAuthClient.challengeOf("dBjftJeZ4CVP-mJ92K9qpIfW5ckGNDRNJk4cDb8uZdU"))
                .isEqualTo("LFzwgihshfpvIau7or_vz4bnfOXIUuLQDNzAjLZEGqY");
    }

    @Test
    void aResourceCoversItsOwnOriginAndPathsBelowIt() {
        java.net.URI server = java.net.URI.create("https://mcp.example.com/tenant/mcp");
        assertThat(Discovery.covers(java.net.URI.create("https://mcp.example.com/tenant/mcp"), server)).isTrue();
        assertThat(Discovery.covers(java.net.URI.create("https://mcp.example.com"), server)).isTrue();
        assertThat(Discovery.covers(java.net.URI.create("https://MCP.example.com:443/tenant"), server)).isTrue();
        assertThat(Discovery.covers(java.net.URI.create("https://evil.example.com/mcp"), server)).isFalse();
        assertThat(Discovery.covers(java.net.URI.create("https://mcp.example.com/ten"), server)).isFalse();
        assertThat(Discovery.covers(java.net.URI.create("http://mcp.example.com/tenant/mcp"), server)).isFalse();
    }

    @Test
    void onlyHttpsOrLoopbackHttpIsAccepted() throws Exception {
        AuthHttp.requireSecure(java.net.URI.create("https://as.example.com/token"), "token endpoint");
        AuthHttp.requireSecure(java.net.URI.create("http://127.0.0.1:8080/token"), "token endpoint");
        AuthHttp.requireSecure(java.net.URI.create("http://localhost:8080/token"), "token endpoint");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AuthHttp.requireSecure(
                java.net.URI.create("http://as.example.com/token"), "token endpoint"))
                .hasMessageContaining("only https");
    }
}

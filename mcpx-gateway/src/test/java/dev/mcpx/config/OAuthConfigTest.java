package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.auth.IdentityProvider;
import dev.mcpx.auth.OAuthSettings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An entry's {@code oauth} key, its default, and what a mistake in it says. */
class OAuthConfigTest {

    @TempDir
    Path dir;

    private UpstreamConfig entry(String json) {
        return new ConfigLoader(Map.of("CORP_SECRET", "s3cret")).parse(json.replace('\'', '"'), dir.resolve("mcpx.json"))
                .upstreams().get(0);
    }

    @Test
    void aUrlServerGetsAnOAuthClientByDefaultUnlessItHasItsOwnAuthorizationOrSaysFalse() {
        assertThat(entry("{'mcpServers': {'r': {'url': 'https://mcp.example.com/mcp'}}}").oauth())
                .isEqualTo(OAuthSettings.defaults());
        assertThat(entry("{'mcpServers': {'r': {'url': 'https://mcp.example.com/mcp',"
                + " 'headers': {'authorization': 'Bearer x'}}}}").oauth()).isNull();
        assertThat(entry("{'mcpServers': {'r': {'url': 'https://mcp.example.com/mcp', 'oauth': false}}}").oauth()).isNull();
        assertThat(entry("{'mcpServers': {'r': {'command': 'server'}}}").oauth()).isNull();
    }

    @Test
    void everyKeyIsReadWithVariablesExpanded() {
        OAuthSettings oauth = entry("""
                {'mcpServers': {'corp': {'url': 'https://mcp.corp.example/mcp', 'oauth': {
                  'client_id': 'mcpx-alice', 'client_secret': '${CORP_SECRET}',
                  'token_endpoint_auth_method': 'client_secret_post', 'issuer': 'https://login.corp.example',
                  'client_metadata_url': 'https://mcpx.example/client.json', 'scopes': ['tools:read', 'tools:call'],
                  'grant': 'client_credentials', 'client_name': 'mcpx at corp'}}}}""").oauth();

        assertThat(oauth).isEqualTo(new OAuthSettings("mcpx-alice", "s3cret", "client_secret_post",
                "https://login.corp.example", "https://mcpx.example/client.json", List.of("tools:read", "tools:call"),
                "mcpx at corp", OAuthSettings.Grant.CLIENT_CREDENTIALS, null, null, null, null));
        assertThat(oauth.toString()).doesNotContain("s3cret");
    }

    @Test
    void mistakesNameTheEntryAndTheKey() {
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp', 'oauth': {'clientId': 'a'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("mcpServers.r").hasMessageContaining("unknown key \"clientId\"");
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'command': 'server', 'oauth': {}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("only applies to a \"url\" server");
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp', 'oauth': {'grant': 'password'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("\"oauth.grant\"");
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp',"
                + " 'oauth': {'grant': 'client_credentials', 'client_id': 'a'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("needs \"client_id\" and \"client_secret\"");
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp',"
                + " 'oauth': {'token_endpoint_auth_method': 'tls_client_auth'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("token_endpoint_auth_method");
    }

    @Test
    void aPrivateKeyFileIsReadRelativeToTheConfigAndSignsAsItsCurveSays() throws Exception {
        Files.createDirectories(dir.resolve("keys"));
        Files.writeString(dir.resolve("keys/ci.pem"), pem(), StandardCharsets.US_ASCII);

        OAuthSettings oauth = entry("{'mcpServers': {'b': {'url': 'https://mcp.b.example/mcp', 'oauth': {"
                + " 'grant': 'client_credentials', 'client_id': 'mcpx-ci', 'private_key_file': 'keys/ci.pem',"
                + " 'key_id': 'k1', 'dpop': false}}}}").oauth();

        assertThat(oauth.tokenEndpointAuthMethod()).isEqualTo("private_key_jwt");
        assertThat(oauth.clientKey().algorithm()).isEqualTo("ES256");
        assertThat(oauth.clientKey().toString()).contains("kid=k1").doesNotContain("PRIVATE");
        assertThat(oauth.grant()).isEqualTo(OAuthSettings.Grant.CLIENT_CREDENTIALS);
        assertThat(oauth.dpop()).isEqualTo(OAuthSettings.Dpop.NEVER);
    }

    @Test
    void theJwtBearerAssertionFileIsReadAtEachUseSoARotatedTokenIsPickedUp() throws Exception {
        Path token = dir.resolve("workload.jwt");
        Files.writeString(token, "jwt-1\n");
        OAuthSettings oauth = entry("{'mcpServers': {'w': {'url': 'https://mcp.w.example/mcp', 'oauth': {"
                + " 'grant': 'jwt_bearer', 'assertion_file': 'workload.jwt'}}}}").oauth();

        assertThat(oauth.grant()).isEqualTo(OAuthSettings.Grant.JWT_BEARER);
        assertThat(oauth.assertion().read()).isEqualTo("jwt-1");
        Files.writeString(token, "jwt-2\n");
        assertThat(oauth.assertion().read()).isEqualTo("jwt-2");
        assertThat(oauth.dpop()).isEqualTo(OAuthSettings.Dpop.WHEN_ADVERTISED);
    }

    @Test
    void enterpriseManagedReadsTheIdTokenAndTheIdentityProvider() {
        OAuthSettings oauth = entry("{'mcpServers': {'wiki': {'url': 'https://mcp.wiki.example/mcp', 'oauth': {"
                + " 'grant': 'enterprise_managed', 'client_id': 'mcpx', 'client_secret': '${CORP_SECRET}',"
                + " 'id_token': 'the-id-token', 'dpop': true,"
                + " 'idp': {'token_endpoint': 'https://login.corp.example/token', 'client_id': 'mcpx-desktop'}}}}}").oauth();

        assertThat(oauth.grant()).isEqualTo(OAuthSettings.Grant.ENTERPRISE_MANAGED);
        assertThat(oauth.assertion().read()).isEqualTo("the-id-token");
        assertThat(oauth.identityProvider()).isEqualTo(new IdentityProvider(URI.create("https://login.corp.example/token"),
                "mcpx-desktop", null));
        assertThat(oauth.dpop()).isEqualTo(OAuthSettings.Dpop.ALWAYS);
        assertThat(oauth.toString()).doesNotContain("s3cret").doesNotContain("the-id-token");
    }

    @Test
    void extensionMistakesSayWhatIsMissing() throws Exception {
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp', 'oauth': {'grant': 'jwt_bearer'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("the workload's JWT")
                .hasMessageContaining("assertion_file");
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp', 'oauth': {"
                + " 'grant': 'enterprise_managed', 'client_id': 'a', 'client_secret': 'b', 'id_token': 't'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("\"oauth.idp\"");
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp', 'oauth': {"
                + " 'grant': 'enterprise_managed', 'client_id': 'a', 'client_secret': 'b', 'id_token': 't',"
                + " 'idp': {'token_endpoint': 'https://idp/token', 'client_id': 'c', 'audience': 'x'}}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("\"oauth.idp\" has unknown key \"audience\"");
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp', 'oauth': {'assertion': 'j'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("only applies to \"grant\": \"jwt_bearer\"");
        Files.writeString(dir.resolve("sec1.pem"), "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n");
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp', 'oauth': {"
                + " 'grant': 'client_credentials', 'client_id': 'a', 'private_key_file': 'sec1.pem'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("openssl pkcs8 -topk8");
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp', 'oauth': {"
                + " 'grant': 'client_credentials', 'client_id': 'a', 'private_key_file': 'missing.pem'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("cannot read");
        Files.writeString(dir.resolve("ec.pem"), pem());
        assertThatThrownBy(() -> entry("{'mcpServers': {'r': {'url': 'https://x/mcp', 'oauth': {"
                + " 'grant': 'client_credentials', 'client_id': 'a', 'private_key_file': 'ec.pem',"
                + " 'signing_algorithm': 'RS256'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("RS256 does not fit");
    }

    private static String pem() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }
}

package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.auth.OAuthSettings;
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
}

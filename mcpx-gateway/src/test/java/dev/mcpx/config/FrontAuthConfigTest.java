package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mcpx.auth}: the HTTP front as an OAuth protected resource, its keys and what a mistake in them says. */
class FrontAuthConfigTest {

    @TempDir
    Path dir;

    private Optional<FrontAuth> auth(String mcpx) {
        return new ConfigLoader(Map.of("TEAM_AS", "https://login.team.example"))
                .parse(("{'mcpServers': {}, 'mcpx': " + mcpx + "}").replace('\'', '"'), dir.resolve("mcpx.json")).auth();
    }

    @Test
    void everyKeyIsReadWithVariablesExpanded() {
        assertThat(auth("{'auth': {'issuer': '${TEAM_AS}', 'resource': 'https://mcp.team.example/mcp',"
                + " 'audience': 'api://mcpx', 'jwksUri': 'https://login.team.example/keys', 'profileClaim': 'mcpx_profile',"
                + " 'scopes': ['mcp:tools']}}")).contains(new FrontAuth("https://login.team.example",
                Optional.of(URI.create("https://mcp.team.example/mcp")), List.of("api://mcpx"),
                Optional.of(URI.create("https://login.team.example/keys")), Optional.of("mcpx_profile"), List.of("mcp:tools")));
        assertThat(auth("{'auth': {'issuer': 'http://127.0.0.1:9000', 'audience': ['a', 'b']}}")).contains(new FrontAuth(
                "http://127.0.0.1:9000", Optional.empty(), List.of("a", "b"), Optional.empty(), Optional.empty(), List.of()));
        assertThat(auth("{}")).isEmpty();
    }

    @Test
    void mistakesNameTheKey() {
        assertThatThrownBy(() -> auth("{'auth': {'resource': 'https://mcp.team.example/mcp'}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("needs \"issuer\"");
        assertThatThrownBy(() -> auth("{'auth': {'issuer': 'https://as.example', 'jwks': 'x'}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unknown key \"jwks\"").hasMessageContaining("jwksUri");
        assertThatThrownBy(() -> auth("{'auth': {'issuer': 'http://as.example'}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("mcpx.auth.issuer").hasMessageContaining("https");
        assertThatThrownBy(() -> auth("{'auth': {'issuer': 'https://as.example', 'resource': 'https://mcp.example/mcp#x'}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("no query or fragment");
        assertThatThrownBy(() -> auth("{'auth': {'issuer': 'https://as.example', 'scopes': ['a b']}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("not a scope token");
        assertThatThrownBy(() -> auth("{'auth': 'https://as.example'}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("\"mcpx.auth\" must be an object");
    }
}

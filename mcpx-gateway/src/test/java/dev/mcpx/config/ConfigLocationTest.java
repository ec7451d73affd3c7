package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.transport.UpstreamEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLocationTest {

    @TempDir
    Path home;

    @Test
    void theOptionWinsOverTheVariableAndTheDefault() {
        Path option = home.resolve("option.json");
        assertThat(ConfigLocation.find(option, Map.of("MCPX_CONFIG", "/elsewhere.json", "HOME", home.toString())))
                .contains(option);
        assertThat(ConfigLocation.find(null, Map.of("MCPX_CONFIG", "/elsewhere.json", "HOME", home.toString())))
                .contains(Path.of("/elsewhere.json"));
    }

    @Test
    void theDefaultPathIsUsedWhenItExists() throws Exception {
        Path file = home.resolve(".config/mcpx/mcpx.json");
        Map<String, String> environment = Map.of("HOME", home.toString());
        assertThat(ConfigLocation.find(null, environment)).isEmpty();

        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}");
        assertThat(ConfigLocation.find(null, environment)).contains(file);
        assertThat(ConfigLocation.load(null, environment).upstreams()).extracting(UpstreamConfig::name).containsExactly("a");
    }

    @Test
    void aNamedFileThatIsMissingIsAnErrorNotTheDefault() {
        Path missing = home.resolve("missing.json");
        assertThatThrownBy(() -> ConfigLocation.load(null, Map.of("MCPX_CONFIG", missing.toString(), "HOME", home.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessage(missing + ": no such file");
    }

    @Test
    void withNoFileAnywhereTheBuiltInServerRunsFromThisClassPath() {
        Map<String, String> environment = Map.of("HOME", home.toString());
        GatewayConfig config = ConfigLocation.load(null, environment);

        assertThat(config.builtIn()).isTrue();
        assertThat(config.upstreams()).singleElement().satisfies(upstream -> {
            assertThat(upstream.name()).isEqualTo("mcpx");
            UpstreamEndpoint.Stdio stdio = (UpstreamEndpoint.Stdio) upstream.endpoint();
            assertThat(stdio.args()).contains(BuiltinConfig.INFO_SERVER_CLASS);
        });
        assertThat(BuiltinConfig.notice(environment)).contains(home.resolve(".config/mcpx/mcpx.json").toString());
    }
}

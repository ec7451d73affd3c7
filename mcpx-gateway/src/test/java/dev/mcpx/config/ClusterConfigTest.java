package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mcpx.cluster.redis} and {@code MCPX_REDIS_URL} as the operator writes them. */
class ClusterConfigTest {

    @TempDir
    Path dir;

    private GatewayConfig parse(String json, Map<String, String> environment) {
        return new ConfigLoader(environment).parse(json.replace('\'', '"'), dir.resolve("mcpx.json"));
    }

    @Test
    void withoutAClusterMcpxIsOneProcess() {
        assertThat(parse("{'mcpServers': {}}", Map.of()).cluster().redis(Map.of())).isEmpty();
    }

    @Test
    void theConfigNamesTheRedisWithVariablesExpanded() {
        GatewayConfig config = parse("{'mcpx': {'cluster': {'redis': 'redis://:${REDIS_PASSWORD}@redis.internal:6379/2'}}, "
                + "'mcpServers': {}}", Map.of("REDIS_PASSWORD", "pw"));
        assertThat(config.cluster().redis(Map.of())).contains(URI.create("redis://:pw@redis.internal:6379/2"));
        assertThat(config.toString()).contains("redis://redis.internal:6379").doesNotContain("pw@");
    }

    @Test
    void theEnvironmentNamesItWhenTheConfigDoesNot() {
        ClusterOptions none = parse("{'mcpServers': {}}", Map.of()).cluster();
        assertThat(none.redis(Map.of("MCPX_REDIS_URL", "rediss://cache:6380"))).contains(URI.create("rediss://cache:6380"));
        assertThat(none.redis(Map.of("MCPX_REDIS_URL", " "))).isEmpty();
        ClusterOptions configured = new ClusterOptions(Optional.of(URI.create("redis://a:1")));
        assertThat(configured.redis(Map.of("MCPX_REDIS_URL", "redis://b:2"))).contains(URI.create("redis://a:1"));
    }

    @Test
    void badClusterOptionsAreConfigErrorsThatNeverShowAPassword() {
        assertThatThrownBy(() -> parse("{'mcpx': {'cluster': {'redis': 'http://:secret@redis:6379'}}, 'mcpServers': {}}", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mcpx.cluster.redis must be redis://HOST:PORT").hasMessageNotContaining("secret");
        assertThatThrownBy(() -> parse("{'mcpx': {'cluster': {'redis': 'redis://redis'}}, 'mcpServers': {}}", Map.of()))
                .hasMessageContaining("without a host and port");
        assertThatThrownBy(() -> parse("{'mcpx': {'cluster': {'redis': 'redis://r:1', 'sentinel': true}}, 'mcpServers': {}}", Map.of()))
                .hasMessageContaining("\"mcpx.cluster\" has unknown key \"sentinel\" (known: redis)");
        assertThatThrownBy(() -> parse("{'mcpx': {'cluster': 'redis://r:1'}, 'mcpServers': {}}", Map.of()))
                .hasMessageContaining("\"mcpx.cluster\" must be an object with \"redis\"");
        assertThatThrownBy(() -> parse("{'mcpServers': {}}", Map.of()).cluster().redis(Map.of("MCPX_REDIS_URL", "localhost:6379")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("MCPX_REDIS_URL must be redis://HOST:PORT");
    }
}

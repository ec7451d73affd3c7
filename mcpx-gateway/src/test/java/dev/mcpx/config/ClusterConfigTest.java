package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
                .hasMessageContaining("\"mcpx.cluster\" has unknown key \"sentinel\" (known: redis, secretKey, secretKeyFile)");
        assertThatThrownBy(() -> parse("{'mcpx': {'cluster': 'redis://r:1'}, 'mcpServers': {}}", Map.of()))
                .hasMessageContaining("\"mcpx.cluster\" must be an object with \"redis\"");
        assertThatThrownBy(() -> parse("{'mcpServers': {}}", Map.of()).cluster().redis(Map.of("MCPX_REDIS_URL", "localhost:6379")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("MCPX_REDIS_URL must be redis://HOST:PORT");
    }

    private static final String KEY = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=";
    private static final String OLD_KEY = "AAECAwQFBgcICQoLDA0ODw==";

    @Test
    void theSecretKeysComeFromTheConfigAFileOrTheEnvironmentAndAreNeverShown() throws Exception {
        GatewayConfig config = parse("{'mcpx': {'cluster': {'redis': 'redis://r:1', 'secretKey': '${K}'}}, 'mcpServers': {}}",
                Map.of("K", KEY + ", " + OLD_KEY));
        assertThat(config.cluster().secretKeys(Map.of())).containsExactly(KEY, OLD_KEY);
        assertThat(config.toString() + config.cluster()).doesNotContain(KEY).doesNotContain(OLD_KEY).contains("secretKeys=2");

        Files.writeString(dir.resolve("cluster.key"), KEY + "\n" + OLD_KEY + "\n");
        GatewayConfig fromFile = parse("{'mcpx': {'cluster': {'secretKeyFile': 'cluster.key'}}, 'mcpServers': {}}", Map.of());
        assertThat(fromFile.cluster().secretKeys(Map.of())).containsExactly(KEY, OLD_KEY);

        ClusterOptions none = parse("{'mcpServers': {}}", Map.of()).cluster();
        assertThat(none.secretKeys(Map.of())).isEmpty();
        assertThat(none.secretKeys(Map.of("MCPX_SECRET_KEY", KEY))).isEqualTo(List.of(KEY));
        assertThat(config.cluster().secretKeys(Map.of("MCPX_SECRET_KEY", OLD_KEY))).as("the config wins").startsWith(KEY);
    }

    @Test
    void aBadSecretKeyIsAConfigErrorThatNeverRepeatsIt() {
        assertThatThrownBy(() -> parse("{'mcpx': {'cluster': {'secretKey': 'not-a-key-at-all'}}, 'mcpServers': {}}", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mcpx.cluster.secretKey: key 1 is not the base64 of 16, 24 or 32 bytes")
                .hasMessageContaining("openssl rand -base64 32").hasMessageNotContaining("not-a-key-at-all");
        assertThatThrownBy(() -> parse("{'mcpx': {'cluster': {'secretKey': '" + KEY + " c2hvcnQ='}}, 'mcpServers': {}}", Map.of()))
                .hasMessageContaining("key 2 is not").hasMessageNotContaining("c2hvcnQ=");
        assertThatThrownBy(() -> parse("{'mcpx': {'cluster': {'secretKeyFile': 'missing.key'}}, 'mcpServers': {}}", Map.of()))
                .hasMessageContaining("mcpx.cluster.secretKeyFile").hasMessageContaining("missing.key: no such file");
        assertThatThrownBy(() -> parse("{'mcpx': {'cluster': {'secretKey': '" + KEY + "', 'secretKeyFile': 'k'}}, 'mcpServers': {}}",
                Map.of())).hasMessageContaining("both secretKey and secretKeyFile");
        assertThatThrownBy(() -> parse("{'mcpServers': {}}", Map.of()).cluster().secretKeys(Map.of("MCPX_SECRET_KEY", "oops")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("MCPX_SECRET_KEY: key 1 is not");
    }
}

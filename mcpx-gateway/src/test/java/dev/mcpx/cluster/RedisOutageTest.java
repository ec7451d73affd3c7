package dev.mcpx.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.testkit.cluster.HaProxy;
import dev.mcpx.testkit.cluster.RedisServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replica whose Redis goes away answers legacy hosts with a clear 503 at once, and goes on serving modern ones. */
class RedisOutageTest {

    @TempDir
    Path dir;

    @Test
    void aLegacyRequestGetsA503SayingWhyAndModernHostsAreServedOn() throws Exception {
        try (RedisServer redis = RedisServer.start(dir)) {
            HaProxy relay = HaProxy.tcpToUnixSocket(dir, redis.socket());
            Gateway gateway = Gateway.start(TestGateways.config(TestGateways.fake("one")), TestGateways.settings(), Map.of());
            try (RedisReplication replication = RedisReplication.connect(URI.create("redis://127.0.0.1:" + relay.port()),
                    "outage", Duration.ofHours(1));
                 HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                         Duration.ofMillis(200), replication.replication())) {
                HttpHost legacy = HttpHost.legacy(front.mcpUri());
                legacy.initialize();
                assertThat(legacy.request("tools/list", null).status()).isEqualTo(200);

                relay.close();

                long start = System.nanoTime();
                HttpHost.Exchange refused = legacy.request("tools/list", null);
                assertThat(refused.status()).isEqualTo(503);
                assertThat(refused.errorCode()).isEqualTo(-32603);
                assertThat(refused.reply().path("error").path("message").asString())
                        .contains("cannot reach its session store");
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
                assertThat(HttpHost.modern(front.mcpUri()).request("tools/list", null).status()).isEqualTo(200);
            } finally {
                gateway.close();
            }
        }
    }
}

package dev.mcpx.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.front.http.Replication;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.testkit.cluster.HaProxy;
import dev.mcpx.testkit.cluster.RedisServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probes answer without a token and say only ok or unavailable; a replica is not ready while
 * its cluster's Redis is unreachable, and live all the same; a gateway of one process is ready.
 */
class HealthzTest {

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aReplicaIsNotReadyWhileItsRedisIsUnreachableAndStaysLive() throws Exception {
        try (RedisServer redis = RedisServer.start(dir)) {
            HaProxy relay = HaProxy.tcpToUnixSocket(dir, redis.socket());
            Gateway gateway = Gateway.start(TestGateways.config(TestGateways.fake("one")), TestGateways.settings(), Map.of());
            try (RedisReplication replication = RedisReplication.connect(URI.create("redis://127.0.0.1:" + relay.port()),
                    "probed", Duration.ofHours(1));
                 HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.token("s3cret"),
                         Duration.ofMillis(200), replication.replication())) {
                assertThat(get(front, "/status").statusCode()).as("the front wants a token").isEqualTo(401);
                assertAnswer(get(front, "/healthz"), 200, "{\"status\":\"ok\"}");
                assertAnswer(get(front, "/healthz/ready"), 200, "{\"status\":\"ok\"}");

                relay.close();

                assertAnswer(get(front, "/healthz/ready"), 503, "{\"status\":\"unavailable\"}");
                assertAnswer(get(front, "/healthz"), 200, "{\"status\":\"ok\"}");
                assertThat(http.send(HttpRequest.newBuilder(front.mcpUri().resolve("/healthz"))
                        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                        .isEqualTo(405);
            } finally {
                gateway.close();
            }
        }
    }

    @Test
    void aGatewayOfOneProcessIsReady() throws Exception {
        Gateway gateway = Gateway.start(TestGateways.config(TestGateways.fake("one")), TestGateways.settings(), Map.of());
        try (HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.token("s3cret"),
                Duration.ofMillis(200), Replication.alone())) {
            assertAnswer(get(front, "/healthz/ready"), 200, "{\"status\":\"ok\"}");
        } finally {
            gateway.close();
        }
    }

    private HttpResponse<String> get(HttpFront front, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(front.mcpUri().resolve(path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void assertAnswer(HttpResponse<String> response, int status, String body) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.body().strip()).isEqualTo(body);
    }
}

package dev.mcpx.router;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A host that calls a tool before its upstream finished its first start (a slow {@code npx}
 * download, a loaded machine) waits for that upstream within the call's timeout, as a call
 * during a restart does, instead of hearing "starting; unavailable" once the gateway-wide
 * start wait for lists has passed (a CI run: a stdio upstream slower than 5 s to start).
 */
class FirstStartCallTest {

    @Test
    void aCallToAnUpstreamStillOnItsFirstStartWaitsForIt() throws Exception {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started()) {
            upstream.initializeDelay(Duration.ofSeconds(2));
            Gateway gateway = Gateway.start(TestGateways.config(TestGateways.withPrefix(
                            UpstreamConfig.of("slow", UpstreamEndpoint.Http.of(upstream.url().toString())), "slow")),
                    TestGateways.settings().withStartWait(Duration.ofMillis(100)), Map.of());
            try (HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                    Duration.ofMillis(200))) {
                HttpHost host = HttpHost.legacy(front.mcpUri());
                host.initialize();

                HttpHost.Exchange call = host.call("slow__echo", Json.object().put("text", "after the start"));

                assertThat(call.text()).as(call.reply().toString()).isEqualTo("after the start");
                assertThat(upstream.executions("echo")).isEqualTo(1);
            } finally {
                gateway.close();
            }
        }
    }
}

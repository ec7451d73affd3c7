package dev.mcpx.gateway;

import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.pool.Backoff;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Configs and settings the gateway tests share: fake stdio upstreams, short backoffs. */
public final class TestGateways {

    private TestGateways() {
    }

    public static Gateway.Settings settings() {
        return Gateway.Settings.defaults("test")
                .withBackoff(new Backoff(Duration.ofMillis(50), Duration.ofMillis(500), Duration.ofSeconds(30)))
                .withStartWait(Duration.ofSeconds(10));
    }

    /** A stdio upstream running the testkit's fake server with {@code flags}. */
    public static UpstreamConfig fake(String name, String... flags) {
        List<String> args = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), StdioFakeServer.class.getName()));
        args.addAll(List.of(flags));
        return UpstreamConfig.of(name, new UpstreamEndpoint.Stdio(java(), args, Map.of(), null, false));
    }

    public static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    public static UpstreamConfig withPrefix(UpstreamConfig config, String prefix) {
        return new UpstreamConfig(config.name(), config.endpoint(), prefix, config.reissue(), config.requestTimeout(),
                config.startTimeout(), config.enabled());
    }

    public static GatewayConfig config(UpstreamConfig... upstreams) {
        return new GatewayConfig(Optional.empty(), List.of(upstreams));
    }
}

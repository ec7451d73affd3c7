package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.client.TransportOpener.Wire;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.LegacySseUpstream;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.testkit.stdio.StdioFakeServer;
import dev.mcpx.transport.TransportKind;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The era answer is shared per endpoint: a second client skips the probe while it is fresh. */
class EraCacheTest {

    private final EraCache cache = EraCache.create(Duration.ofMinutes(5));

    private McpClient connect(URI url) {
        return McpClient.builder(new UpstreamEndpoint.Http(url, Map.of(), UpstreamEndpoint.HttpKind.AUTO))
                .name("cached").eraCache(cache).requestTimeout(Duration.ofSeconds(20)).build().connect();
    }

    private static long modernProbes(LegacyHttpUpstream upstream) {
        return upstream.requests().stream().filter(RecordedRequest::isRpcRequest)
                .filter(r -> "server/discover".equals(r.rpcMethod())).count();
    }

    @Test
    void aSecondClientToTheSameLegacyEndpointSendsNoModernProbe() {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started()) {
            try (McpClient first = connect(upstream.url())) {
                assertThat(first.server().era()).isEqualTo(Era.LEGACY);
            }
            assertThat(modernProbes(upstream)).isEqualTo(1);

            try (McpClient second = connect(upstream.url())) {
                assertThat(second.server().era()).isEqualTo(Era.LEGACY);
                assertThat(second.listTools()).isNotEmpty();
            }
            assertThat(modernProbes(upstream)).as("the second client trusted the cache").isEqualTo(1);
            assertThat(upstream.initializeCount()).isEqualTo(2);
        }
    }

    @Test
    void clientsConnectingAtOnceToOneEndpointProbeItOnce() throws Exception {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started()) {
            List<java.util.concurrent.Future<McpClient>> connecting = new java.util.ArrayList<>();
            try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 4; i++) {
                    connecting.add(threads.submit(() -> connect(upstream.url())));
                }
                for (var future : connecting) {
                    try (McpClient client = future.get(60, java.util.concurrent.TimeUnit.SECONDS)) {
                        assertThat(client.server().era()).isEqualTo(Era.LEGACY);
                    }
                }
            }
            assertThat(modernProbes(upstream)).isEqualTo(1);
            assertThat(upstream.initializeCount()).isEqualTo(4);
        }
    }

    @Test
    void aCacheWithoutTtlSharesNothing() {
        EraCache off = EraCache.create(Duration.ZERO);
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started()) {
            for (int i = 0; i < 2; i++) {
                McpClient.builder(UpstreamEndpoint.Http.of(upstream.url().toString())).eraCache(off).build().connect().close();
            }
            assertThat(modernProbes(upstream)).isEqualTo(2);
            assertThat(off.size()).isZero();
        }
    }

    @Test
    void aSecondClientToTheSameModernEndpointSendsNoDiscoverWhileTheDiscoveryIsFresh() {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start()) {
            ServerDescription discovered;
            try (McpClient first = connect(upstream.url())) {
                discovered = first.server();
            }
            try (McpClient second = connect(upstream.url())) {
                assertThat(second.server()).isEqualTo(discovered);
                assertThat(second.transportKind()).isEqualTo(TransportKind.STREAMABLE_HTTP);
                assertThat(second.listTools()).isNotEmpty();
            }
            assertThat(upstream.calls("server/discover")).isEqualTo(1);
            assertThat(upstream.violations()).isEmpty();
        }
    }

    @Test
    void aModernDiscoveryWithoutTtlIsNotSharedButTheEraIs() {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start().ttlMs(0)) {
            connect(upstream.url()).close();
            try (McpClient second = connect(upstream.url())) {
                assertThat(second.server().era()).isEqualTo(Era.MODERN);
            }
            assertThat(upstream.calls("server/discover")).as("capabilities are asked again").isEqualTo(2);
            assertThat(upstream.requests()).extracting(r -> r.rpcMethod()).containsOnly("server/discover");
        }
    }

    @Test
    void anEndpointRedeployedInTheOtherEraIsProbedAgainAtConnect() {
        LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
        int port = legacy.port();
        try {
            connect(legacy.url()).close();
        } finally {
            legacy.close();
        }
        try (ModernHttpUpstream modern = ModernHttpUpstream.startOn(port); McpClient client = connect(modern.url())) {
            assertThat(client.server().era()).isEqualTo(Era.MODERN);
            assertThat(client.listTools()).isNotEmpty();
            assertThat(modern.calls("server/discover")).isEqualTo(1);
        }
        try (ModernHttpUpstream again = ModernHttpUpstream.startOn(port); McpClient client = connect(again.url())) {
            assertThat(client.server().era()).as("the cache now says modern").isEqualTo(Era.MODERN);
            assertThat(again.requests()).as("a fresh public discovery stands in for the probe").isEmpty();
        }
    }

    @Test
    void anHttpSseEndpointRedeployedAsModernIsProbedAgainAtConnect() {
        LegacySseUpstream sse = LegacySseUpstream.started();
        URI url = sse.url();
        try (McpClient client = connect(url)) {
            assertThat(client.transportKind()).isEqualTo(TransportKind.HTTP_SSE);
        } finally {
            sse.close();
        }
        // the modern fake answers on every path, so the old SSE URL is now a modern endpoint
        try (ModernHttpUpstream modern = ModernHttpUpstream.startOn(url.getPort()); McpClient client = connect(url)) {
            assertThat(client.server().era()).isEqualTo(Era.MODERN);
            assertThat(client.transportKind()).isEqualTo(TransportKind.STREAMABLE_HTTP);
            assertThat(client.listTools()).isNotEmpty();
            assertThat(modern.requests()).extracting(r -> r.httpMethod()).as("the cached HTTP+SSE GET, refused, then the probe")
                    .startsWith("GET", "POST");
        }
    }

    @Test
    void stdioIsNeverCached() {
        for (String era : List.of("modern", "legacy", "modern")) {
            List<String> command = StdioFakeServer.command("--era", era);
            UpstreamEndpoint.Stdio endpoint = new UpstreamEndpoint.Stdio(command.getFirst(),
                    command.subList(1, command.size()), Map.of(), null, false);
            try (McpClient client = McpClient.builder(endpoint).eraCache(cache).probeTimeout(Duration.ofSeconds(5))
                    .requestTimeout(Duration.ofSeconds(20)).build().connect()) {
                assertThat(client.server().era()).isEqualTo(era.equals("modern") ? Era.MODERN : Era.LEGACY);
            }
        }
        assertThat(cache.size()).isZero();
    }

    @Test
    void entriesAgeOut() {
        MutableClock clock = new MutableClock();
        EraCache aging = EraCache.create(Duration.ofSeconds(30), clock);
        UpstreamEndpoint.Http endpoint = UpstreamEndpoint.Http.of("http://127.0.0.1:9/mcp");
        ServerDescription discovery = new ServerDescription(Era.MODERN, ProtocolVersion.V2026_07_28,
                Json.object(), Json.object(), null);
        aging.remember(endpoint, Wire.MODERN_HTTP, discovery, Duration.ofSeconds(10));

        assertThat(aging.lookup(endpoint).discovery()).isEqualTo(discovery);
        clock.advance(Duration.ofSeconds(11));
        assertThat(aging.lookup(endpoint).discovery()).as("the discovery lives only for its own ttl").isNull();
        assertThat(aging.lookup(endpoint).wire()).isEqualTo(Wire.MODERN_HTTP);
        clock.advance(Duration.ofSeconds(20));
        assertThat(aging.lookup(endpoint)).isNull();
        assertThat(aging.size()).isZero();
    }

    @Test
    void theKeyIsTheEndpointNotTheOrigin() {
        assertThat(EraCache.keyOf(URI.create("HTTP://Example.com/mcp"))).isEqualTo(EraCache.keyOf(URI.create("http://example.com:80/mcp")));
        assertThat(EraCache.keyOf(URI.create("https://user:pw@example.com/mcp#x"))).isEqualTo("https://example.com:443/mcp");
        assertThat(EraCache.keyOf(URI.create("http://example.com/mcp"))).isNotEqualTo(EraCache.keyOf(URI.create("http://example.com/sse")));
        assertThat(EraCache.keyOf(URI.create("http://example.com:8080/mcp"))).isNotEqualTo(EraCache.keyOf(URI.create("http://example.com/mcp")));
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-07-28T00:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}

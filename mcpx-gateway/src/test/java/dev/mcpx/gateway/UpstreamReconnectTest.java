package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.pool.Upstream;
import dev.mcpx.pool.UpstreamState;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.LegacySseUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * An HTTP upstream of any transport that was up and goes away for a while (refusing connections,
 * then back on the same port) makes a host's call wait for it within the call's deadline, as a
 * restarting stdio child does, instead of failing it at once with "cannot connect"; the gateway
 * reconnects with its bounded backoff, not once per call.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UpstreamReconnectTest {

    /** The three HTTP transports, each as a fake that can be stopped and started on its port. */
    enum Peer {
        /** Configured as {@code "type": "sse"}. */
        HTTP_SSE,
        /** Only its URL configured: found by era detection's fallback to HTTP+SSE. */
        HTTP_SSE_DETECTED,
        LEGACY_STREAMABLE,
        MODERN
    }

    /** A fake of one transport, stopped and started again on the port it first got. */
    private static final class Restartable implements AutoCloseable {
        private final Peer peer;
        private LegacySseUpstream sse;
        private LegacyHttpUpstream legacy;
        private ModernHttpUpstream modern;
        private final int port;

        Restartable(Peer peer) {
            this.peer = peer;
            switch (peer) {
                case HTTP_SSE, HTTP_SSE_DETECTED -> sse = LegacySseUpstream.started();
                case LEGACY_STREAMABLE -> legacy = LegacyHttpUpstream.started();
                case MODERN -> modern = ModernHttpUpstream.start();
            }
            port = url().getPort();
        }

        URI url() {
            return switch (peer) {
                case HTTP_SSE, HTTP_SSE_DETECTED -> sse.url();
                case LEGACY_STREAMABLE -> legacy.url();
                case MODERN -> modern.url();
            };
        }

        UpstreamEndpoint.Http endpoint() {
            return new UpstreamEndpoint.Http(url(), Map.of(), peer == Peer.HTTP_SSE
                    ? UpstreamEndpoint.HttpKind.SSE : UpstreamEndpoint.HttpKind.AUTO);
        }

        String tool() {
            return peer == Peer.MODERN ? "read_only_tool" : "echo";
        }

        String expected(int execution) {
            return peer == Peer.MODERN ? "read_only_tool execution " + execution : "hello " + execution;
        }

        void stop() {
            switch (peer) {
                case HTTP_SSE, HTTP_SSE_DETECTED -> sse.stop();
                case LEGACY_STREAMABLE -> legacy.stop();
                case MODERN -> modern.close();
            }
        }

        void start() {
            switch (peer) {
                case HTTP_SSE, HTTP_SSE_DETECTED -> sse.start();
                case LEGACY_STREAMABLE -> legacy.start();
                case MODERN -> modern = ModernHttpUpstream.startOn(port);
            }
        }

        @Override
        public void close() {
            stop();
        }
    }

    @ParameterizedTest
    @EnumSource(Peer.class)
    void aCallToAnUpstreamThatIsBackSoonWaitsForItAndIsAnswered(Peer kind) throws Exception {
        try (Restartable peer = new Restartable(kind);
             Gateway gateway = Gateway.start(TestGateways.config(UpstreamConfig.of("remote", peer.endpoint())),
                     TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            HttpHost host = HttpHost.modern(front.mcpUri());
            Upstream upstream = gateway.pool().require("remote");
            await().atMost(Duration.ofSeconds(30)).until(() -> upstream.state() == UpstreamState.UP);
            assertThat(call(host, peer, 1).text()).isEqualTo(peer.expected(1));

            peer.stop();
            // the first call after the stop learns that the upstream is gone (HTTP has no event for it);
            // it and every call after it wait for the upstream instead of failing with "cannot connect"
            CompletableFuture<Exchange> waiting = CompletableFuture.supplyAsync(() -> call(host, peer, 2));
            // a connection was refused since: the stopped server was tried (by the call or a reconnect)
            await().atMost(Duration.ofSeconds(30)).until(() -> upstream.state() != UpstreamState.UP
                    && String.valueOf(upstream.status().reason()).contains("ConnectException"));
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());
            CompletableFuture<Exchange> later = CompletableFuture.supplyAsync(() -> call(host, peer, 3));
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !later.isDone());

            peer.start();
            Exchange answered = waiting.get(30, TimeUnit.SECONDS);
            assertThat(answered.reply().has("result")).as(answered.body()).isTrue();
            Exchange alsoAnswered = later.get(30, TimeUnit.SECONDS);
            assertThat(alsoAnswered.reply().has("result")).as(alsoAnswered.body()).isTrue();
            assertThat(upstream.state()).isEqualTo(UpstreamState.UP);
            assertThat(upstream.status().restarts()).as("one reconnect for both calls").isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(Peer.class)
    void anUpstreamRestartedAtOnceIsReconnectedAndAnswersTheNextCall(Peer kind) throws Exception {
        try (Restartable peer = new Restartable(kind);
             Gateway gateway = Gateway.start(TestGateways.config(UpstreamConfig.of("remote", peer.endpoint())),
                     TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            HttpHost host = HttpHost.modern(front.mcpUri());
            Upstream upstream = gateway.pool().require("remote");
            await().atMost(Duration.ofSeconds(30)).until(() -> upstream.state() == UpstreamState.UP);
            assertThat(call(host, peer, 1).text()).isEqualTo(peer.expected(1));

            peer.stop();
            peer.start();
            for (int n = 2; n <= 4; n++) {
                Exchange answered = call(host, peer, n);
                assertThat(answered.reply().has("result")).as(answered.body()).isTrue();
            }
            assertThat(upstream.state()).isEqualTo(UpstreamState.UP);
        }
    }

    private static Exchange call(HttpHost host, Restartable peer, int n) {
        try {
            ObjectNode arguments = Json.object().put("text", "hello " + n);
            return host.call("remote__" + peer.tool(), arguments);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

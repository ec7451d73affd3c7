package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.testkit.chaos.ChaosProxy;
import dev.mcpx.testkit.chaos.ConnectionFault;
import dev.mcpx.testkit.chaos.FaultPlan;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.LegacySseUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An upstream that accepts a request and never sends a byte back must cost the caller its
 * request timeout, not its thread: the chaos soak found callers (and, on legacy, the session
 * recovery lock) waiting forever for the status line.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StalledUpstreamTest {

    private static final FaultPlan STALL_EVERYTHING = new FaultPlan(1, 0, 100, 0, 0, 0);
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    @Test
    void aModernRequestToAStalledUpstreamTimesOut() throws Exception {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start();
             ChaosProxy proxy = ChaosProxy.start(upstream.url(), FaultPlan.none());
             McpClient client = connect(proxy.url(upstream.url()))) {
            stall(proxy);
            assertTimesOutPromptly(client, "read_only_tool");
            assertThat(client.pendingCount()).isZero();
        }
    }

    @Test
    void aLegacyRequestToAStalledUpstreamTimesOut() throws Exception {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started().listenStream(false);
             ChaosProxy proxy = ChaosProxy.start(upstream.url(), FaultPlan.none());
             McpClient client = connect(proxy.url(upstream.url()))) {
            stall(proxy);
            assertTimesOutPromptly(client, "echo");
            assertThat(client.pendingCount()).isZero();
        }
    }

    /** HTTP+SSE answers on its stream, so its send waits only for the POST's 202: a POST that never gets one. */
    @Test
    void anHttpSseRequestToAnUpstreamThatTakesThePostAndStallsTimesOut() {
        try (LegacySseUpstream upstream = LegacySseUpstream.started();
             McpClient client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(),
                     UpstreamEndpoint.HttpKind.SSE)).name("stalled").requestTimeout(TIMEOUT).build().connect()) {
            upstream.stallPosts(true);
            assertTimesOutPromptly(client, "echo");
            assertThat(client.pendingCount()).isZero();
        }
    }

    @Test
    void aLegacyJsonBodyThatStallsAfterItsHeadersTimesOutAndReleasesTheConnection() throws Exception {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started().listenStream(false)
                     .responseMode(LegacyHttpUpstream.ResponseMode.JSON);
             ChaosProxy proxy = ChaosProxy.start(upstream.url(), FaultPlan.none());
             McpClient client = connect(proxy.url(upstream.url()))) {
            stallBodies(proxy);
            assertTimesOutPromptly(client, "echo");
            assertThat(client.pendingCount()).isZero();
            assertConnectionsReleased(proxy);
        }
    }

    @Test
    void abandoningStalledLegacyBodiesLeavesNoReaderDyingUncaught() throws Exception {
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
        try {
            for (LegacyHttpUpstream.ResponseMode mode : List.of(LegacyHttpUpstream.ResponseMode.JSON,
                    LegacyHttpUpstream.ResponseMode.SSE)) {
                try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started().listenStream(false).responseMode(mode);
                     ChaosProxy proxy = ChaosProxy.start(upstream.url(), FaultPlan.none());
                     McpClient client = connect(proxy.url(upstream.url()))) {
                    stallBodies(proxy);
                    assertTimesOutPromptly(client, "echo");
                    assertConnectionsReleased(proxy);
                }
            }
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
        assertThat(uncaught).as("exceptions that ended a thread").isEmpty();
    }

    @Test
    void aLegacySseResponseThatStallsBeforeItsEventTimesOutAndReleasesTheConnection() throws Exception {
        try (LegacyHttpUpstream upstream = LegacyHttpUpstream.started().listenStream(false)
                     .responseMode(LegacyHttpUpstream.ResponseMode.SSE);
             ChaosProxy proxy = ChaosProxy.start(upstream.url(), FaultPlan.none());
             McpClient client = connect(proxy.url(upstream.url()))) {
            stallBodies(proxy);
            assertTimesOutPromptly(client, "echo");
            assertThat(client.pendingCount()).isZero();
            assertConnectionsReleased(proxy);
        }
    }

    @Test
    void aModernBodyThatStallsAfterItsHeadersTimesOutAndReleasesTheConnection() throws Exception {
        for (boolean sse : new boolean[] {false, true}) {
            try (ModernHttpUpstream upstream = ModernHttpUpstream.start().sseForEverything(sse);
                 ChaosProxy proxy = ChaosProxy.start(upstream.url(), FaultPlan.none());
                 McpClient client = connect(proxy.url(upstream.url()))) {
                stallBodies(proxy);
                assertTimesOutPromptly(client, "read_only_tool");
                assertThat(client.pendingCount()).isZero();
                assertConnectionsReleased(proxy);
            }
        }
    }

    private static void stallBodies(ChaosProxy proxy) throws InterruptedException {
        proxy.forceFault(new ConnectionFault.StallBody());
        proxy.dropConnections();
        Thread.sleep(300);
    }

    /**
     * Every stalled exchange's connection is closed by the client, not left for the upstream to
     * end: the stalled POST, and on legacy the listen GET when its 405 raced the stall (the
     * client needs nothing from that refusal's body, so it must not wait for it).
     */
    private static void assertConnectionsReleased(ChaosProxy proxy) throws InterruptedException {
        long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (proxy.withholdingConnections() > 0 && System.nanoTime() < giveUp) {
            Thread.sleep(50);
        }
        assertThat(proxy.withheldRequests()).as("connections the proxy still withholds a body from").isEmpty();
    }

    private static McpClient connect(URI url) {
        McpClient client = McpClient.builder(UpstreamEndpoint.Http.of(url.toString())).name("stalled")
                .requestTimeout(TIMEOUT).build();
        client.connect();
        return client;
    }

    private static void stall(ChaosProxy proxy) throws InterruptedException {
        proxy.plan(STALL_EVERYTHING);
        proxy.dropConnections();
        Thread.sleep(300);
    }

    private static void assertTimesOutPromptly(McpClient client, String tool) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> client.callTool(tool, Json.object().put("text", "hi"), RequestOptions.defaults()))
                .isInstanceOf(RequestTimeoutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the request's timeout and a small margin")
                .isLessThan(TIMEOUT.plusSeconds(2));
    }
}

package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client's subscriptions/listen: list changes reach the cache and the embedding code; lost streams come back. */
class ModernSubscriptionTest {

    private static final String README = "file:///docs/readme.md";

    private final List<ClientEvent> events = new CopyOnWriteArrayList<>();
    private ModernHttpUpstream upstream;
    private McpClient client;

    @BeforeEach
    void start() {
        upstream = ModernHttpUpstream.start();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        upstream.close();
        assertThat(upstream.headerMismatches()).isZero();
        assertThat(upstream.violations()).isEmpty();
    }

    private void connect() {
        client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("modern").listenForChanges(true).events(events::add).build().connect();
    }

    @Test
    void aToolsListChangeInvalidatesTheCacheAndIsReported() {
        connect();
        await().until(() -> upstream.openSubscriptions() == 1);
        client.listTools();

        upstream.pushToolsListChanged();

        await().until(() -> events.contains(new ClientEvent.ListChanged(CatalogueKind.TOOLS)));
        client.listTools();
        assertThat(upstream.calls("tools/list")).isEqualTo(2);
    }

    @Test
    void aDroppedSubscriptionIsReopened() {
        connect();
        await().until(() -> upstream.openSubscriptions() == 1);

        upstream.endSubscriptions(false);

        await().atMost(Duration.ofSeconds(5)).until(() -> upstream.listenRequests() == 2 && upstream.openSubscriptions() == 1);
        upstream.pushToolsListChanged();
        await().until(() -> events.contains(new ClientEvent.ListChanged(CatalogueKind.TOOLS)));
    }

    @Test
    void aGracefullyEndedSubscriptionIsReopenedToo() {
        connect();
        await().until(() -> upstream.openSubscriptions() == 1);

        upstream.endSubscriptions(true);

        await().atMost(Duration.ofSeconds(5)).until(() -> upstream.listenRequests() == 2 && upstream.openSubscriptions() == 1);
    }

    @Test
    void aRefusedSubscriptionIsNeverRetried() throws InterruptedException {
        upstream.refuseListen(true);
        connect();
        await().until(() -> upstream.listenRequests() == 1);

        await().during(ListenLoop.MIN_BACKOFF.multipliedBy(5)).atMost(ListenLoop.MIN_BACKOFF.multipliedBy(10))
                .until(() -> upstream.listenRequests() == 1);
        assertThat(client.isOpen()).isTrue();
    }

    @Test
    void aWatchedResourceHasItsOwnStreamAndTheListChangeStreamIsLeftAlone() {
        connect();
        await().until(() -> upstream.openSubscriptions() == 1);

        client.subscribeResource(README);
        upstream.pushResourceUpdated(README);

        await().until(() -> events.stream().anyMatch(e -> e instanceof ClientEvent.ResourceUpdated u
                && u.params().path("uri").asString().equals(README)));
        assertThat(upstream.listenRequests()).isEqualTo(2);
        assertThat(upstream.openSubscriptions()).isEqualTo(2);
    }

    @Test
    void watchingAResourceOpensAStreamEvenWithoutListChanges() {
        client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("modern").events(events::add).build().connect();
        assertThat(upstream.listenRequests()).isZero();

        client.subscribeResource(README);
        await().until(() -> upstream.openSubscriptions() == 1);
        upstream.pushResourceUpdated(README);

        await().until(() -> events.stream().anyMatch(e -> e instanceof ClientEvent.ResourceUpdated));
    }

    @Test
    void closingTheClientEndsTheSubscription() {
        connect();
        await().until(() -> upstream.openSubscriptions() == 1);

        client.close();

        await().atMost(Duration.ofSeconds(3)).until(() -> upstream.openSubscriptions() == 0);
        assertThat(upstream.listenRequests()).isEqualTo(1);
    }
}

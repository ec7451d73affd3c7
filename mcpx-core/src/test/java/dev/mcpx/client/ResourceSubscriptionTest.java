package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** subscribeResource / unsubscribeResource in both eras, over real HTTP to the testkit fakes. */
class ResourceSubscriptionTest {

    private static final String README = "file:///docs/readme.md";
    private static final String MENU = "file:///docs/café menu.txt";

    private final List<ClientEvent> events = new CopyOnWriteArrayList<>();
    private McpClient client;
    private ModernHttpUpstream modern;
    private LegacyHttpUpstream legacy;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (modern != null) {
            modern.close();
            assertThat(modern.violations()).isEmpty();
        }
        if (legacy != null) {
            legacy.close();
        }
    }

    private McpClient modernClient() {
        modern = ModernHttpUpstream.start();
        client = McpClient.builder(new UpstreamEndpoint.Http(modern.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("modern").requestTimeout(Duration.ofSeconds(10)).events(events::add).build().connect();
        return client;
    }

    private McpClient legacyClient() {
        legacy = LegacyHttpUpstream.started();
        client = McpClient.builder(new UpstreamEndpoint.Http(legacy.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("legacy").protocolVersion(ProtocolVersion.V2025_11_25).requestTimeout(Duration.ofSeconds(10))
                .events(events::add).build().connect();
        return client;
    }

    private long updatesOf(String uri) {
        return events.stream().filter(e -> e instanceof ClientEvent.ResourceUpdated u
                && u.params().path("uri").asString().equals(uri)).count();
    }

    @Test
    void modernSubscribeReturnsOnceTheUpstreamAcknowledgedSoTheNextUpdateArrives() {
        modernClient().subscribeResource(README);

        modern.pushResourceUpdated(README);

        await().until(() -> updatesOf(README) == 1);
    }

    @Test
    void modernWatchingASecondResourceRetiresTheOldStreamWithoutDuplicates() throws InterruptedException {
        modernClient().subscribeResource(README);
        client.subscribeResource(MENU);

        modern.pushResourceUpdated(README);
        modern.pushResourceUpdated(MENU);

        await().until(() -> updatesOf(MENU) == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> modern.openSubscriptions() == 1);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> updatesOf(README) == 1);
        assertThat(modern.listenRequests()).isEqualTo(2);
    }

    @Test
    void modernUnsubscribeStopsThatResourcesUpdatesOnly() throws InterruptedException {
        modernClient().subscribeResource(README);
        client.subscribeResource(MENU);

        client.unsubscribeResource(README);
        modern.pushResourceUpdated(README);
        modern.pushResourceUpdated(MENU);

        await().untilAsserted(() -> assertThat(events).hasSize(1));
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> updatesOf(README) == 0);
        client.unsubscribeResource(MENU);
        await().atMost(Duration.ofSeconds(5)).until(() -> modern.openSubscriptions() == 0);
    }

    @Test
    void modernDroppedStreamIsReopenedWithTheSameResources() {
        modernClient().subscribeResource(README);

        modern.endSubscriptions(false);

        await().atMost(Duration.ofSeconds(10)).until(() -> modern.listenRequests() == 2 && modern.openSubscriptions() == 1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            modern.pushResourceUpdated(README);
            assertThat(updatesOf(README)).isPositive();
        });
    }

    @Test
    void modernRefusedSubscriptionIsTheUpstreamsError() {
        modernClient();
        modern.refuseListen(true);

        assertThatThrownBy(() -> client.subscribeResource(README))
                .isInstanceOfSatisfying(McpErrorException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND));
    }

    @Test
    void modernResourceTheUpstreamLeavesOutOfItsAcknowledgmentIsAnError() {
        modernClient();
        modern.declineResource(MENU);
        client.subscribeResource(README);

        assertThatThrownBy(() -> client.subscribeResource(MENU))
                .isInstanceOfSatisfying(McpErrorException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
                    assertThat(e.getMessage()).contains("did not agree");
                });
        modern.pushResourceUpdated(README);
        await().until(() -> updatesOf(README) == 1);
    }

    @Test
    void legacySubscriptionSurvivesAnUpstreamRestart() {
        legacyClient().subscribeResource("test://counter");
        await().until(() -> legacy.notifyResourceUpdated("test://counter") == 1);
        await().until(() -> updatesOf("test://counter") >= 1);

        legacy.restart();
        client.listTools();

        await().atMost(Duration.ofSeconds(10)).until(() -> legacy.subscriptions().values().stream()
                .anyMatch(uris -> uris.equals(Set.of("test://counter"))));
        long before = updatesOf("test://counter");
        await().atMost(Duration.ofSeconds(10)).until(() -> legacy.notifyResourceUpdated("test://counter") == 1);
        await().until(() -> updatesOf("test://counter") > before);
    }

    @Test
    void legacyUnsubscribeReachesTheUpstream() {
        legacyClient().subscribeResource("test://counter");

        client.unsubscribeResource("test://counter");

        assertThat(legacy.subscriptions().values()).allMatch(Set::isEmpty);
        assertThat(legacy.notifyResourceUpdated("test://counter")).isZero();
    }
}

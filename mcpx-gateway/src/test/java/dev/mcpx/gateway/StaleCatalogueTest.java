package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.catalogue.ListKind;
import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.pool.Upstream;
import dev.mcpx.pool.UpstreamState;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The merged catalogue is not trusted forever: a server swapped on the same URL that keeps the
 * old session (so nothing reconnects) is found out by its "unknown tool" answer and listed again
 * once, and a list whose upstream {@code ttlMs} ran out is read again when a host asks for it.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StaleCatalogueTest {

    private static final String ECHO = "{\"name\": \"echo\", \"description\": \"Echoes its arguments\","
            + " \"inputSchema\": {\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\"}}}}";

    @Test
    void aServerSwappedOnTheSameUrlThatKeepsTheSessionIsListedAgainAfterItsUnknownToolAnswer() throws Exception {
        LegacyHttpUpstream first = LegacyHttpUpstream.started();
        int port = first.port();
        LegacyHttpUpstream second = new LegacyHttpUpstream().acceptUnknownSessions(true).withoutTools("echo");
        try (Gateway gateway = Gateway.start(TestGateways.config(UpstreamConfig.of("remote",
                     UpstreamEndpoint.Http.of(first.url().toString()))), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            var changes = new CopyOnWriteArrayList<Set<ListKind>>();
            gateway.catalogue().onChange(change -> changes.add(change.kinds()));
            HttpHost host = HttpHost.modern(front.mcpUri());
            Upstream upstream = gateway.pool().require("remote");
            await().atMost(Duration.ofSeconds(30)).until(() -> upstream.state() == UpstreamState.UP);
            assertThat(host.request("tools/list", null).body()).contains("remote__echo");
            assertThat(host.call("remote__echo", Json.object().put("text", "one")).text()).isEqualTo("one");

            first.close();
            second.startOn(port);

            Exchange unknown = host.call("remote__echo", Json.object().put("text", "two"));
            assertThat(unknown.reply().path("error").path("message").asString()).as(unknown.body())
                    .contains("Unknown tool");
            assertThat(host.request("tools/list", null).body()).as("listed again after the unknown-tool answer")
                    .doesNotContain("remote__echo").contains("remote__add");
            assertThat(changes).as("hosts were told the tools changed").anyMatch(kinds -> kinds.contains(ListKind.TOOLS));
            assertThat(second.initializeCount()).as("the old session carried on: no reconnect found it out").isZero();
            assertThat(toolsLists(second)).as("one refresh").isEqualTo(1);

            Exchange again = host.call("remote__echo", Json.object().put("text", "three"));
            assertThat(again.reply().has("error")).as(again.body()).isTrue();
            assertThat(second.requests()).filteredOn(r -> "tools/call".equals(r.rpcMethod()))
                    .as("the gateway knows the tool is gone").hasSize(1);
            assertThat(toolsLists(second)).isEqualTo(1);
        } finally {
            first.close();
            second.close();
        }
    }

    @Test
    void aListWhoseTtlRanOutIsReadAgainWhenAHostAsksForIt() throws Exception {
        try (ModernHttpUpstream upstream = ModernHttpUpstream.start().ttlMs(0);
             Gateway gateway = Gateway.start(TestGateways.config(UpstreamConfig.of("remote",
                     UpstreamEndpoint.Http.of(upstream.url().toString()))), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            HttpHost host = HttpHost.modern(front.mcpUri());
            Upstream pooled = gateway.pool().require("remote");
            await().atMost(Duration.ofSeconds(30)).until(() -> pooled.state() == UpstreamState.UP);
            assertThat(host.request("tools/list", null).body()).contains("remote__read_only_tool")
                    .doesNotContain("remote__echo");

            upstream.putEchoTool(ECHO);

            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(host.request("tools/list", null).body()).contains("remote__echo"));

            long before = upstream.calls("tools/list");
            long started = System.nanoTime();
            for (int i = 0; i < 30; i++) {
                host.request("tools/list", null);
            }
            long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
            assertThat(upstream.calls("tools/list") - before).as("a ttlMs of 0 is read again at most once a second")
                    .isLessThanOrEqualTo(seconds + 1);
        }
    }

    private static long toolsLists(LegacyHttpUpstream upstream) {
        return upstream.requests().stream().map(RecordedRequest::rpcMethod).filter("tools/list"::equals).count();
    }
}

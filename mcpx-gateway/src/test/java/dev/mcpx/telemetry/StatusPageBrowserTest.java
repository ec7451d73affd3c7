package dev.mcpx.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.chaos.SilentCloses.When;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The status page at {@code GET /} in a real headless Chromium: it shows the upstreams and the
 * merged catalogue, and after the upstream restarted, its re-initialize and a call's recovery.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StatusPageBrowserTest {

    private static JsonNode remote(URI status) throws Exception {
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(status).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (JsonNode upstream : Json.parse(body).path("upstreams")) {
            if ("remote".equals(upstream.path("name").asString())) {
                return upstream;
            }
        }
        throw new AssertionError("no remote in " + body);
    }

    @Test
    void theBrowserSeesTheUpstreamsTheCatalogueAndARecoveryAfterARestart() throws Exception {
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             Gateway gateway = Gateway.start(TestGateways.config(
                     UpstreamConfig.of("remote", UpstreamEndpoint.Http.of(legacy.url().toString())),
                     TestGateways.fake("local")), TestGateways.settings(), Map.of());
             HttpFront front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE,
                     Duration.ofMillis(200))) {
            URI page = front.mcpUri().resolve("/");
            HttpHost host = HttpHost.legacy(front.mcpUri());
            host.initialize();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(host.request("tools/list", null).body())
                    .contains("remote__echo", "local__echo"));

            String before = HeadlessChromium.dumpDom(page);
            assertThat(before).contains("data-upstream=\"remote\"", "data-upstream=\"local\"", "class=\"state up\"",
                    "remote__echo", "local__add", "no recoveries yet");

            legacy.restart();
            assertThat(host.call("remote__echo", Json.object().put("text", "after")).text()).isEqualTo("after");
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    remote(front.mcpUri().resolve("/status")).path("reinitializations").asInt() == 1);
            legacy.closeWithoutAnswer("echo", 1, When.BEFORE_RUNNING);
            assertThat(host.call("remote__echo", Json.object().put("text", "again")).text()).isEqualTo("again");

            String after = HeadlessChromium.dumpDom(page);
            assertThat(after).containsPattern("<td>re-initializations</td><td class=\"n\">1</td>")
                    .containsPattern("class=\"recovery\">[^<]* reissue \u2014 tools/call echo<");
            HeadlessChromium.screenshot(page, Path.of("target", "status-page.png"));
        }
    }
}

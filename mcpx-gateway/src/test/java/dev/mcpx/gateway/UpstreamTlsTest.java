package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.front.http.TestCertificates;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * Upstreams over https, as remote servers are, and over plain http, as local ones are. The https
 * upstream is a second {@code mcpx serve} with a TLS front, trusted through the JVM's own trust
 * store settings; TLS is set up only when an upstream needs it (a set-up that costs over 100 ms
 * of CPU at every start), which the JVM's class-loading log shows.
 */
class UpstreamTlsTest {

    /** Loaded when the JVM's default TLS reads its trust store. */
    private static final String TRUST_STORE_READ = "sun.security.ssl.TrustStoreManager ";

    @TempDir
    Path dir;

    @Test
    void callsReachAnHttpsUpstreamTheJvmTrusts() throws Exception {
        TestCertificates.Issued issued = TestCertificates.issue(dir, "inner", "EC");
        Path trust = trustStore(issued);
        Path classes = dir.resolve("outer.classes");
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             ServeProcess inner = ServeProcess.start(Map.of(), "serve", "-c", config("remote", legacy.url().toString()).toString(),
                     "--http", "127.0.0.1:0", "--tls-cert", issued.files().certificate().toString(),
                     "--tls-key", issued.files().key().toString()).awaitListening()) {
            assertThat(inner.mcpUri().getScheme()).isEqualTo("https");
            try (ServeProcess outer = ServeProcess.start(List.of("-Djavax.net.ssl.trustStore=" + trust,
                            "-Djavax.net.ssl.trustStorePassword=changeit", "-Djavax.net.ssl.trustStoreType=PKCS12",
                            "-Xlog:class+load:file=" + classes), Map.of(),
                    "serve", "-c", config("inner", inner.mcpUri().toString()).toString(), "--http", "127.0.0.1:0").awaitListening()) {
                HttpHost host = HttpHost.modern(outer.mcpUri());
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(host.request("tools/list", null).body())
                        .as(() -> outer.stderr() + inner.stderr()).contains("inner__remote__echo"));

                HttpHost.Exchange call = host.call("inner__remote__echo", Json.object().put("text", "over tls"));

                assertThat(call.text()).as(call.body() + outer.stderr()).isEqualTo("over tls");
                assertThat(legacy.executions("echo")).isEqualTo(1);
                assertThat(Files.readString(classes)).contains(TRUST_STORE_READ);
            }
        }
    }

    /**
     * Both of mcpx's HTTP clients meet TLS first through a redirect and set it up then: the
     * legacy era (pinned) sends its POSTs through one and opens its GET stream through the other.
     */
    @Test
    void aPlainHttpUpstreamThatRedirectsToHttpsIsFollowed() throws Exception {
        TestCertificates.Issued issued = TestCertificates.issue(dir, "inner", "EC");
        Path trust = trustStore(issued);
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             ServeProcess inner = ServeProcess.start(Map.of(), "serve", "-c", config("remote", legacy.url().toString()).toString(),
                     "--http", "127.0.0.1:0", "--tls-cert", issued.files().certificate().toString(),
                     "--tls-key", issued.files().key().toString()).awaitListening()) {
            HttpServer redirect = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            List<String> redirected = new CopyOnWriteArrayList<>();
            redirect.createContext("/", exchange -> {
                redirected.add(exchange.getRequestMethod());
                exchange.getRequestBody().readAllBytes();
                exchange.getResponseHeaders().add("Location", inner.mcpUri().toString());
                exchange.sendResponseHeaders(307, -1);
                exchange.close();
            });
            redirect.start();
            try (ServeProcess outer = ServeProcess.start(List.of("-Djavax.net.ssl.trustStore=" + trust,
                            "-Djavax.net.ssl.trustStorePassword=changeit", "-Djavax.net.ssl.trustStoreType=PKCS12"), Map.of(),
                    "serve", "-c", config("inner", "http://127.0.0.1:" + redirect.getAddress().getPort() + "/mcp", "legacy").toString(),
                    "--http", "127.0.0.1:0").awaitListening()) {
                HttpHost host = HttpHost.modern(outer.mcpUri());
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(host.request("tools/list", null).body())
                        .as(() -> outer.stderr() + inner.stderr()).contains("inner__remote__echo"));

                HttpHost.Exchange call = host.call("inner__remote__echo", Json.object().put("text", "redirected"));

                assertThat(call.text()).as(call.body() + outer.stderr()).isEqualTo("redirected");
                assertThat(legacy.executions("echo")).isEqualTo(1);
                assertThat(redirected).contains("POST", "GET");
            } finally {
                redirect.stop(0);
            }
        }
    }

    @Test
    void aGatewayWithOnlyPlainHttpUpstreamsNeverSetsUpTls() throws Exception {
        Path classes = dir.resolve("plain.classes");
        try (LegacyHttpUpstream legacy = LegacyHttpUpstream.started();
             ServeProcess serve = ServeProcess.start(List.of("-Xlog:class+load:file=" + classes), Map.of(),
                     "serve", "-c", config("remote", legacy.url().toString()).toString(), "--http", "127.0.0.1:0")
                     .awaitListening()) {
            HttpHost host = HttpHost.modern(serve.mcpUri());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(host.request("tools/list", null).body())
                    .as(serve::stderr).contains("remote__echo"));

            assertThat(host.call("remote__echo", Json.object().put("text", "plain")).text()).isEqualTo("plain");
            assertThat(Files.readString(classes)).contains("org.eclipse.jetty.client.HttpClient ")
                    .doesNotContain(TRUST_STORE_READ).doesNotContain("sun.security.ssl.SSLContextImpl ");
        }
    }

    private Path config(String name, String url) throws Exception {
        return config(name, url, null);
    }

    private Path config(String name, String url, String era) throws Exception {
        ObjectNode root = Json.object();
        ObjectNode entry = root.putObject("mcpServers").putObject(name).put("url", url);
        if (era != null) {
            entry.put("era", era);
        }
        return Files.writeString(dir.resolve(name + ".json"), Json.write(root));
    }

    private Path trustStore(TestCertificates.Issued issued) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("inner", issued.certificate());
        Path file = dir.resolve("trust.p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, "changeit".toCharArray());
        }
        return file;
    }
}

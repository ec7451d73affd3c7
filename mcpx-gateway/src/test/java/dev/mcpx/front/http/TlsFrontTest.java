package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.config.ConfigException;
import dev.mcpx.config.TlsFiles;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.TestGateways;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The HTTP front over TLS from PEM files: real TLS clients, a plain one refused, rotation, bad files. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TlsFrontTest {

    @TempDir
    Path dir;

    private Gateway gateway;

    @BeforeAll
    void startGateway() {
        gateway = Gateway.start(TestGateways.config(), TestGateways.settings(), Map.of());
    }

    @AfterAll
    void stopGateway() {
        gateway.close();
    }

    private HttpFront start(TlsFiles files, int scanSeconds) throws Exception {
        return HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0),
                new HttpSecurity(List.of(), Optional.of(files), false), Duration.ofMillis(200), SseSettings.DEFAULTS,
                scanSeconds);
    }

    @Test
    void aRealTlsClientConnectsAndAPlainHttpOneIsRefused() throws Exception {
        TestCertificates.Issued issued = TestCertificates.issue(dir, "front", "EC");
        try (HttpFront front = start(issued.files(), HttpFront.TLS_SCAN_SECONDS)) {
            assertThat(front.mcpUri().getScheme()).isEqualTo("https");
            URI status = front.mcpUri().resolve("/status");
            HttpClient tls = HttpClient.newBuilder().sslContext(issued.trustingClient()).build();
            HttpResponse<String> served = tls.send(HttpRequest.newBuilder(status).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(served.statusCode()).isEqualTo(200);
            assertThat(served.body()).contains("\"upstreams\"");

            URI plain = URI.create("http://127.0.0.1:" + front.port() + "/status");
            assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(plain)
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(IOException.class);
            try (Socket socket = new Socket("127.0.0.1", front.port())) {
                socket.setSoTimeout(30_000);
                socket.getOutputStream().write("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String answer = new String(socket.getInputStream().readNBytes(5), StandardCharsets.ISO_8859_1);
                assertThat(answer).doesNotStartWith("HTTP/");
            }
        }
    }

    @Test
    void onlyTls12AndTls13AreSpoken() throws Exception {
        TestCertificates.Issued issued = TestCertificates.issue(dir, "protocols", "EC");
        TlsReload reload = new TlsReload(issued.files(), 1);
        reload.factory().start();
        try {
            assertThat(reload.factory().getSelectedProtocols()).isNotEmpty().containsOnly("TLSv1.3", "TLSv1.2");
        } finally {
            reload.factory().stop();
        }
        try (HttpFront front = start(issued.files(), HttpFront.TLS_SCAN_SECONDS)) {
            assertThat(handshake(front, issued.trustingClient(), "TLSv1.3").getSession().getProtocol()).isEqualTo("TLSv1.3");
            assertThat(handshake(front, issued.trustingClient(), "TLSv1.2").getSession().getProtocol()).isEqualTo("TLSv1.2");
        }
    }

    @Test
    void aRotatedCertificateIsServedToNewConnectionsWithoutARestart() throws Exception {
        Path live = Files.createDirectories(dir.resolve("live"));
        TestCertificates.Issued first = TestCertificates.issue(live, "rotating", "EC");
        TestCertificates.Issued second = TestCertificates.issue(Files.createDirectories(dir.resolve("next")), "rotating", "EC");
        SSLContext client = TestCertificates.trusting(List.of(first.certificate(), second.certificate()));
        try (HttpFront front = start(first.files(), 1)) {
            assertThat(servedSerial(front, client)).isEqualTo(first.certificate().getSerialNumber());

            TestCertificates.write(first.files().certificate(), TestCertificates.pem(second.certificate()),
                    first.files().key(), TestCertificates.pem("PRIVATE KEY", second.key().getEncoded()));

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> servedSerial(front, client).equals(second.certificate().getSerialNumber()));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"EC", "RSA", "Ed25519"})
    void aPkcs8KeyOfEachCommonAlgorithmServesTls(String algorithm) throws Exception {
        TestCertificates.Issued issued = TestCertificates.issue(dir, "pkcs8-" + algorithm, algorithm);

        try (HttpFront front = start(issued.files(), HttpFront.TLS_SCAN_SECONDS)) {
            assertThat(servedSerial(front, issued.trustingClient())).isEqualTo(issued.certificate().getSerialNumber());
        }
    }

    @Test
    void aKeyWrittenAsPkcs1RsaIsRead() throws Exception {
        TestCertificates.Issued issued = TestCertificates.issue(dir, "rsa", "RSA");
        Files.writeString(issued.files().key(), TestCertificates.pem("RSA PRIVATE KEY", pkcs1(issued.key().getEncoded())));

        KeyStore store = PemCredentials.load(issued.files());

        assertThat(store.getKey(PemCredentials.ALIAS, PemCredentials.STORE_PASSWORD).getEncoded())
                .isEqualTo(issued.key().getEncoded());
        try (HttpFront front = start(issued.files(), HttpFront.TLS_SCAN_SECONDS)) {
            assertThat(servedSerial(front, issued.trustingClient())).isEqualTo(issued.certificate().getSerialNumber());
        }
    }

    @Test
    void filesThatCannotServeTlsAreRefusedNamingTheFileAndWhatIsWrong() throws Exception {
        TestCertificates.Issued one = TestCertificates.issue(dir, "one", "EC");
        TestCertificates.Issued other = TestCertificates.issue(dir, "other", "EC");

        assertThatThrownBy(() -> start(new TlsFiles(one.files().certificate(), other.files().key()), 1))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("other.key").hasMessageContaining("does not belong to the certificate");
        assertThatThrownBy(() -> start(new TlsFiles(dir.resolve("absent.crt"), one.files().key()), 1))
                .isInstanceOf(ConfigException.class).hasMessageContaining("absent.crt").hasMessageContaining("cannot be read");
        Path encrypted = Files.writeString(dir.resolve("encrypted.key"), TestCertificates.pem("ENCRYPTED PRIVATE KEY", new byte[] {1, 2}));
        assertThatThrownBy(() -> start(new TlsFiles(one.files().certificate(), encrypted), 1))
                .isInstanceOf(ConfigException.class).hasMessageContaining("encrypted.key").hasMessageContaining("openssl pkcs8");
        assertThatThrownBy(() -> start(new TlsFiles(one.files().key(), one.files().key()), 1))
                .isInstanceOf(ConfigException.class).hasMessageContaining("one.key").hasMessageContaining("no certificate");
    }

    private static SSLSocket handshake(HttpFront front, SSLContext client, String protocol) throws IOException {
        SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", front.port());
        socket.setSoTimeout(30_000);
        socket.setEnabledProtocols(new String[] {protocol});
        socket.startHandshake();
        return socket;
    }

    private static BigInteger servedSerial(HttpFront front, SSLContext client) throws IOException {
        try (SSLSocket socket = handshake(front, client, "TLSv1.3")) {
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    /** The RSAPrivateKey inside a PKCS#8 PrivateKeyInfo: the contents of its OCTET STRING (the third element). */
    private static byte[] pkcs1(byte[] pkcs8) {
        int[] at = {0};
        header(pkcs8, at);
        skip(pkcs8, at);
        skip(pkcs8, at);
        int length = header(pkcs8, at);
        return Arrays.copyOfRange(pkcs8, at[0], at[0] + length);
    }

    private static int header(byte[] der, int[] at) {
        at[0]++;
        int first = der[at[0]++] & 0xff;
        if (first < 0x80) {
            return first;
        }
        int length = 0;
        for (int i = 0; i < (first & 0x7f); i++) {
            length = (length << 8) | (der[at[0]++] & 0xff);
        }
        return length;
    }

    private static void skip(byte[] der, int[] at) {
        int length = header(der, at);
        at[0] += length;
    }

}

package dev.mcpx.front.http;

import dev.mcpx.config.TlsFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Self-signed certificates for 127.0.0.1 and localhost, made by the JDK's keytool, written as PEM. */
public final class TestCertificates {

    private static final char[] PASSWORD = "changeit".toCharArray();

    /** A certificate and its key; {@code files} are the PEM files the front reads. */
    public record Issued(X509Certificate certificate, PrivateKey key, TlsFiles files) {

        /** A client context that trusts this certificate only. */
        public SSLContext trustingClient() throws GeneralSecurityException, IOException {
            return trusting(List.of(certificate));
        }
    }

    private TestCertificates() {
    }

    /** {@code keyAlgorithm} "EC", "RSA" or "Ed25519"; the PEM files are {@code <name>.crt} and {@code <name>.key} in {@code dir}. */
    public static Issued issue(Path dir, String name, String keyAlgorithm) throws Exception {
        Path store = dir.resolve(name + ".p12");
        Files.deleteIfExists(store);
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "mcpx", "-keyalg", keyAlgorithm, "-validity", "2",
                "-dname", "CN=" + name, "-ext", "san=ip:127.0.0.1,dns:localhost",
                "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD)));
        command.addAll(switch (keyAlgorithm) {
            case "EC" -> List.of("-groupname", "secp256r1");
            case "RSA" -> List.of("-keysize", "2048");
            default -> List.of();
        });
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD);
        }
        X509Certificate certificate = (X509Certificate) keys.getCertificate("mcpx");
        PrivateKey key = (PrivateKey) keys.getKey("mcpx", PASSWORD);
        Path crt = dir.resolve(name + ".crt");
        Path pem = dir.resolve(name + ".key");
        write(crt, pem(certificate), pem("PRIVATE KEY", key.getEncoded()));
        return new Issued(certificate, key, new TlsFiles(crt, pem));
    }

    static String pem(X509Certificate certificate) throws GeneralSecurityException {
        return pem("CERTIFICATE", certificate.getEncoded());
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** Writes both files (as a certificate rotation does: the certificate, then the key). */
    static void write(Path crt, String certificatePem, Path keyFile, String keyPem) throws IOException {
        Files.writeString(crt, certificatePem);
        Files.writeString(keyFile, keyPem);
    }

    private static void write(Path crt, String certificatePem, String keyPem) throws IOException {
        write(crt, certificatePem, crt.resolveSibling(crt.getFileName().toString().replace(".crt", ".key")), keyPem);
    }

    static SSLContext trusting(List<X509Certificate> certificates) throws GeneralSecurityException, IOException {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        for (int i = 0; i < certificates.size(); i++) {
            trusted.setCertificateEntry("trusted-" + i, certificates.get(i));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}

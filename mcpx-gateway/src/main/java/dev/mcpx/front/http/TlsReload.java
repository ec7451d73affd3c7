package dev.mcpx.front.http;

import dev.mcpx.config.ConfigException;
import dev.mcpx.config.TlsFiles;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Set;
import org.eclipse.jetty.util.Scanner;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The front's TLS from PEM files, reloaded when they change (certificates rotate: certbot and
 * cert-manager rewrite the files in place). New connections get the new certificate; a pair that
 * does not load (a key written before its certificate) is logged and the running one kept until
 * the next change.
 */
final class TlsReload {

    private static final Logger LOG = LoggerFactory.getLogger(TlsReload.class);

    /** TLS 1.2 and 1.3 only; Jetty's defaults already drop weak cipher suites. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final TlsFiles files;
    private final SslContextFactory.Server factory = new SslContextFactory.Server();
    private final Scanner scanner = new Scanner();

    /** Loads the files now: a {@link ConfigException} naming the file when they cannot serve TLS. */
    TlsReload(TlsFiles files, int scanSeconds) {
        this.files = files;
        factory.setIncludeProtocols(PROTOCOLS);
        use(factory, PemCredentials.load(files));
        scanner.addFile(files.certificate().toAbsolutePath());
        scanner.addFile(files.key().toAbsolutePath());
        scanner.setScanInterval(scanSeconds);
        scanner.setReportExistingFilesOnStartup(false);
        scanner.addListener(new Scanner.BulkListener() {
            @Override
            public void pathsChanged(Set<java.nio.file.Path> changed) {
                reload();
            }
        });
        LOG.info("TLS: {}", describe(PemCredentials.certificates(files.certificate()).getFirst()));
    }

    SslContextFactory.Server factory() {
        return factory;
    }

    /** Started and stopped with the server (add it as a bean). */
    Scanner scanner() {
        return scanner;
    }

    private void reload() {
        KeyStore store;
        try {
            store = PemCredentials.load(files);
        } catch (ConfigException e) {
            LOG.warn("TLS files changed but do not load, the running certificate stays: {}", e.getMessage());
            return;
        }
        try {
            factory.reload(reloaded -> use(reloaded, store));
            LOG.info("TLS certificate reloaded: {}", describe(PemCredentials.certificates(files.certificate()).getFirst()));
        } catch (Exception e) {
            LOG.warn("TLS reload failed, the running certificate stays: {}", e.toString());
        }
    }

    private static void use(SslContextFactory factory, KeyStore store) {
        factory.setKeyStore(store);
        factory.setKeyStorePassword(new String(PemCredentials.STORE_PASSWORD));
        factory.setKeyManagerPassword(new String(PemCredentials.STORE_PASSWORD));
        factory.setCertAlias(PemCredentials.ALIAS);
    }

    private static String describe(X509Certificate certificate) {
        return certificate.getSubjectX500Principal().getName() + ", valid until " + certificate.getNotAfter().toInstant();
    }
}

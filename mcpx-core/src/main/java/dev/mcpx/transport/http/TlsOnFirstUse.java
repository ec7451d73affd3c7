package dev.mcpx.transport.http;

import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * TLS for the HTTP clients that most often speak plain http to local upstreams. Setting up the
 * JVM's default TLS (its trust store read, its cipher suites worked out) costs 110-170 ms of CPU,
 * which every start paid though no upstream was https; here it happens when the first https
 * connection is made (an https upstream, or a redirect to one), with the same trust as before.
 */
final class TlsOnFirstUse {

    private TlsOnFirstUse() {
    }

    /**
     * For a JDK client, with {@link #jdkParameters()}: the JDK's default context, looked up on the
     * first TLS connection. (The client asks a context it is given for nothing else when it is
     * built with parameters of its own.)
     */
    static SSLContext jdkContext() {
        return new DefaultContext();
    }

    /** Nothing set: each TLS connection's engine keeps the default context's protocols and suites. */
    static SSLParameters jdkParameters() {
        return new SSLParameters();
    }

    /** Gives Jetty's client a TLS set-up that starts on its first TLS connection instead of with the client. */
    static void deferJetty(ClientConnector connector) {
        SslContextFactory.Client factory = new JettyFactory();
        connector.setSslContextFactory(factory);
        connector.unmanage(factory);
    }

    private static final class DefaultContext extends SSLContext {
        DefaultContext() {
            super(new DefaultOnFirstUse(), null, "Default");
        }
    }

    private static final class DefaultOnFirstUse extends SSLContextSpi {

        private static SSLContext resolved() {
            try {
                return SSLContext.getDefault();
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("this JVM has no default TLS context: " + e, e);
            }
        }

        @Override
        protected void engineInit(KeyManager[] keys, TrustManager[] trust, SecureRandom random) throws KeyManagementException {
            throw new KeyManagementException("the default TLS context cannot be initialised again");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return resolved().getSocketFactory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return resolved().getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return resolved().createSSLEngine();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return resolved().createSSLEngine(host, port);
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return resolved().getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return resolved().getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return resolved().getDefaultSSLParameters();
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return resolved().getSupportedSSLParameters();
        }
    }

    /** Jetty's own client factory (host names verified, as its client's default is), started on first use. */
    private static final class JettyFactory extends SslContextFactory.Client {

        JettyFactory() {
            super(false);
            setEndpointIdentificationAlgorithm("HTTPS");
        }

        @Override
        public SSLEngine newSSLEngine() {
            startOnce();
            return super.newSSLEngine();
        }

        @Override
        public SSLEngine newSSLEngine(String host, int port) {
            startOnce();
            return super.newSSLEngine(host, port);
        }

        private synchronized void startOnce() {
            if (!isStarted()) {
                try {
                    start();
                } catch (Exception e) {
                    throw new IllegalStateException("could not set up TLS: " + e, e);
                }
            }
        }
    }
}

package dev.mcpx.front.http;

import dev.mcpx.front.FrontLimits;
import dev.mcpx.front.ListChanges;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.telemetry.Telemetry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.eclipse.jetty.http.MimeTypes;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code mcpx serve --http}: Jetty on virtual threads serving {@code /mcp} (both eras) and
 * {@code /status}, over TLS when given a certificate. Binds where told (127.0.0.1 by default at
 * the command line), and beyond loopback only with a token (configured, or OAuth access tokens from
 * an authorization server) or the operator's explicit opt-out.
 */
public final class HttpFront implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpFront.class);

    public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(1);

    /** How long a legacy session lives unused (in a shared store: unused on every replica). */
    public static final Duration IDLE_LIMIT = Duration.ofHours(1);

    /**
     * Exchanges served at once. Jetty's default of 200 capped hosts at 200 calls in flight;
     * past {@link #PLATFORM_THREADS}, each waiting call is only a parked virtual thread.
     */
    static final int MAX_CONCURRENT_EXCHANGES = 10_000;

    /** Platform threads the front runs on before it takes virtual ones ({@link FrontThreads}). */
    static final int PLATFORM_THREADS = 32;

    /** Connections the kernel queues for accept; Java's default of 50 overflowed when many hosts connected at once. */
    static final int ACCEPT_QUEUE = 1024;

    private final Server server;
    private final ServerConnector connector;
    private final ReplayCounters replayCounters = new ReplayCounters();
    private final LegacySessions sessions;
    private final Thread sweeper;
    private final ModernListeners listeners = new ModernListeners();
    private final Runnable unsubscribe;
    private final boolean tls;

    private HttpFront(Gateway gateway, InetSocketAddress address, HttpSecurity security, Duration keepAlive,
                      SseSettings sse, int tlsScanSeconds, Replication replication) {
        if (security.refuses(address)) {
            throw new IllegalArgumentException(address.getHostString() + " is reachable from other machines: "
                    + "a token, or allowUnauthenticated, is required");
        }
        if (security.auth().isPresent() && security.auth().get().resource().isEmpty() && !HttpSecurity.loopback(address)) {
            throw new IllegalArgumentException(address.getHostString() + " is reachable from other machines: "
                    + "mcpx.auth.resource (the URL hosts reach /mcp at) is required");
        }
        FrontLimits limits = gateway.frontLimits();
        gateway.hostRequests().relayHeldCalls(replication.heldCalls());
        sessions = new LegacySessions(IDLE_LIMIT, limits, sse, replayCounters, replication.sessions(), replication.streams(),
                gateway.hostRequests());
        server = new Server(new FrontThreads(PLATFORM_THREADS, MAX_CONCURRENT_EXCHANGES));
        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(limits.maxHeaderBytes());
        tls = security.tls().isPresent();
        if (tls) {
            TlsReload reload = new TlsReload(security.tls().get(), tlsScanSeconds);
            connector = new ServerConnector(server, new SslConnectionFactory(reload.factory(), "http/1.1"),
                    new HttpConnectionFactory(http));
            server.addBean(reload.scanner());
        } else {
            connector = new ServerConnector(server, new HttpConnectionFactory(http));
        }
        connector.setHost(address.getHostString());
        connector.setPort(address.getPort());
        connector.setAcceptQueueSize(ACCEPT_QUEUE);
        server.addConnector(connector);
        McpEndpoint mcp = new McpEndpoint(gateway.hostRequests(), sessions, listeners, keepAlive, sse,
                replayCounters, limits.maxMessageBytes(), replication.hostMessages(), replication.streams());
        Telemetry telemetry = gateway.telemetry();
        telemetry.front("tcp");
        telemetry.count("mcpx_sse_resumptions", "Legacy SSE streams resumed with Last-Event-ID",
                replayCounters.resumptions::get);
        telemetry.count("mcpx_sse_replayed_events", "Events replayed to resumed legacy SSE streams",
                replayCounters.replayedEvents::get);
        telemetry.count("mcpx_sse_refused_resumptions", "Resumptions refused: the events were gone",
                replayCounters.refusedResumptions::get);
        telemetry.count("mcpx_sse_evicted_events", "Events dropped from the replay store to stay within its bounds",
                replayCounters.evictedEvents::get);
        ProtectedResource resource = security.auth().map(auth -> new ProtectedResource(auth, this::mcpUri)).orElse(null);
        AccessTokens accessTokens = security.auth().map(auth -> new AccessTokens(auth, AccessTokens.DEFAULT_REFRESH_INTERVAL))
                .orElse(null);
        server.setHandler(new GatewayHandler(new AccessGuard(security.tokens(), address.getHostString(), resource,
                accessTokens), resource, mcp, new StatusPage(gateway.pool(), gateway.catalogue(), replayCounters, telemetry,
                replication.membership()), telemetry, new Health(replication.membership())));
        server.setStopTimeout(2_000);
        unsubscribe = gateway.listChanges().subscribe(notice -> {
            listsChanged(notice);
            replication.lists().publish(notice);
        });
        replication.lists().onChangedElsewhere(this::listsChanged);
        sweeper = Thread.ofVirtual().name("mcpx-http-sweeper").unstarted(() -> sweep(sse.sweepEvery()));
    }

    /**
     * Initialises, on the calling thread, what a front's start would otherwise initialise on the
     * thread that starts it: Jetty's {@code MimeTypes}, whose static initialiser asks the JVM for
     * every locale it knows (45-55 ms at launch, with an AOT cache).
     */
    public static void prepare() {
        Objects.requireNonNull(MimeTypes.DEFAULTS);
    }

    private void sweep(Duration every) {
        while (true) {
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
            sessions.sweep();
        }
    }

    /**
     * Starts serving with {@code security}'s tokens and TLS; {@code address} port 0 picks a free
     * port (see {@link #port()}). An address beyond loopback without a
     * token for {@code /mcp} is refused ({@link IllegalArgumentException}) unless the security
     * allows it; certificate files that do not load are a {@link dev.mcpx.config.ConfigException}.
     */
    public static HttpFront start(Gateway gateway, InetSocketAddress address, HttpSecurity security, Duration keepAlive)
            throws Exception {
        return start(gateway, address, security, keepAlive, SseSettings.DEFAULTS, TLS_SCAN_SECONDS, Replication.alone());
    }

    /** As one replica of a cluster: sessions and list changes shared through {@code replication}. */
    public static HttpFront start(Gateway gateway, InetSocketAddress address, HttpSecurity security, Duration keepAlive,
                                  Replication replication) throws Exception {
        return start(gateway, address, security, keepAlive, SseSettings.DEFAULTS, TLS_SCAN_SECONDS, replication);
    }

    /** With other SSE limits than the defaults (tests shrink the store and the grace period). */
    static HttpFront start(Gateway gateway, InetSocketAddress address, HttpSecurity security, Duration keepAlive,
                           SseSettings sse) throws Exception {
        return start(gateway, address, security, keepAlive, sse, TLS_SCAN_SECONDS, Replication.alone());
    }

    /** How often the certificate files are checked for changes. */
    static final int TLS_SCAN_SECONDS = 5;

    static HttpFront start(Gateway gateway, InetSocketAddress address, HttpSecurity security, Duration keepAlive,
                           SseSettings sse, int tlsScanSeconds) throws Exception {
        return start(gateway, address, security, keepAlive, sse, tlsScanSeconds, Replication.alone());
    }

    private static HttpFront start(Gateway gateway, InetSocketAddress address, HttpSecurity security, Duration keepAlive,
                                   SseSettings sse, int tlsScanSeconds, Replication replication) throws Exception {
        HttpFront front = new HttpFront(gateway, address, security, keepAlive, sse, tlsScanSeconds, replication);
        front.server.start();
        front.sweeper.start();
        return front;
    }

    public int port() {
        return connector.getLocalPort();
    }

    public URI mcpUri() {
        String host = connector.getHost() == null ? "127.0.0.1" : connector.getHost();
        return URI.create((tls ? "https://" : "http://") + (host.contains(":") ? "[" + host + "]" : host) + ":" + port() + "/mcp");
    }

    /** Each host listening here hears of the lists that changed for its profile, on this replica or another. */
    private void listsChanged(ListChanges.Notice notice) {
        sessions.all().forEach(session -> session.host.listsChanged(notice));
        listeners.all().forEach(listener -> listener.listen().listsChanged(notice));
    }

    /** Stops accepting, ends open streams and sessions. */
    @Override
    public void close() {
        unsubscribe.run();
        sweeper.interrupt();
        sessions.all().forEach(LegacySession::end);
        listeners.all().forEach(listener -> {
            listener.listen().cancel("mcpx is shutting down");
            listener.stream().finish();
        });
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("stopping the HTTP front: {}", e.toString());
        }
    }
}

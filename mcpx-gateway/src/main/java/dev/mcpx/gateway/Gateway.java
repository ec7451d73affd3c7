package dev.mcpx.gateway;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.client.ServerRequestHandler;
import dev.mcpx.config.ConfigLoader;
import dev.mcpx.config.ConfigWatcher;
import dev.mcpx.config.GatewayConfig;
import dev.mcpx.config.TelemetryOptions;
import dev.mcpx.front.FrontLimits;
import dev.mcpx.front.HostObserver;
import dev.mcpx.front.HostRequests;
import dev.mcpx.front.HostRoots;
import dev.mcpx.router.CallObserver;
import dev.mcpx.router.HeldCalls;
import dev.mcpx.front.ListChanges;
import dev.mcpx.front.ServerIdentity;
import dev.mcpx.pool.Backoff;
import dev.mcpx.pool.ClientFactory;
import dev.mcpx.pool.Pool;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.protocol.Methods;
import dev.mcpx.telemetry.AuditLog;
import dev.mcpx.telemetry.Telemetry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's layers wired together, without a front: catalogue, pool, the host request
 * answerer and, when the config came from a file, the watcher that applies edits live.
 */
public final class Gateway implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

    private final Catalogue catalogue = new Catalogue();
    private final Pool pool;
    private final ListChanges changes;
    private final HostRequests requests;
    private final Telemetry telemetry;
    private final ConfigWatcher watcher;
    private volatile GatewayConfig config;
    private final FrontLimits frontLimits;
    /** The config the fronts started with: their tokens and TLS files stay as they were. */
    private final GatewayConfig started;

    private Gateway(GatewayConfig config, Settings settings, Map<String, String> environment) {
        this.config = config;
        this.started = config;
        this.frontLimits = LimitChanges.front(config.limits());
        this.pool = new Pool(catalogue, settings.clients(), settings.backoff());
        this.changes = new ListChanges(catalogue, settings.debounce());
        catalogue.profiles(config.profiles());
        HostRoots roots = new HostRoots();
        TelemetryOptions observed = config.telemetry();
        this.telemetry = new Telemetry(pool, this::heldCalls, observed.audit()
                .map(audit -> AuditLog.open(audit, config.source().orElse(null))).orElse(AuditLog.OFF), observed.metrics(),
                observed.traces(), settings.identity().version());
        // with neither metrics, an audit log nor traces, a call pays for no observer at all
        boolean observe = observed.metrics() || observed.audit().isPresent() || observed.traces().isPresent();
        this.requests = new HostRequests(catalogue, pool, settings.identity(), settings.startWait(), settings.pageSize(),
                settings.heldCalls(), roots, observe ? telemetry : HostObserver.NONE, observe ? telemetry : CallObserver.NONE);
        // a legacy upstream asking roots/list on its own gets the hosts' roots, and hears when they change
        pool.answerOutsideCalls((method, params) -> Methods.ROOTS_LIST.equals(method) ? roots.union()
                : ServerRequestHandler.pingOnly().handle(method, params));
        roots.onChange(() -> pool.notifyLegacyUpstreams(Methods.ROOTS_LIST_CHANGED));
        this.watcher = config.source()
                .map(file -> new ConfigWatcher(file, new ConfigLoader(environment), this::reload))
                .orElse(null);
    }

    /** Starts every upstream (concurrently, without waiting for them) and watches the config file. */
    public static Gateway start(GatewayConfig config, Settings settings, Map<String, String> environment) {
        Gateway gateway = create(config, settings, environment);
        gateway.startUpstreams();
        return gateway;
    }

    /**
     * The gateway with every upstream registered and none started until {@link #startUpstreams}: a
     * front started in between comes up without ten upstreams' start-up competing with it for the
     * CPU, and a host it serves meanwhile waits for the upstreams as for any starting one.
     */
    public static Gateway create(GatewayConfig config, Settings settings, Map<String, String> environment) {
        Gateway gateway = new Gateway(config, settings, environment);
        gateway.pool.hold();
        gateway.pool.apply(config);
        return gateway;
    }

    /** Starts the upstreams {@link #create} registered (concurrently, without waiting for them) and watches the config file. */
    public void startUpstreams() {
        pool.release();
        if (watcher != null) {
            watcher.start();
        }
    }

    /**
     * Applies a changed config: added upstreams start, removed stop, changed restart (which is
     * how changed message limits and request timeouts reach their clients). The front's limits
     * are fixed while it serves: a change to them is logged as needing a restart.
     */
    public void reload(GatewayConfig next) {
        LOG.info("config changed: {} upstreams", next.upstreams().size());
        LimitChanges.warnFrontRestartNeeded(frontLimits, LimitChanges.front(next.limits()));
        LimitChanges.warnFrontAccessChanged(started, next);
        config = next;
        catalogue.profiles(next.profiles());
        pool.apply(next);
    }

    /** The host-facing limits of the config the gateway started with: fronts keep them while they serve. */
    public FrontLimits frontLimits() {
        return frontLimits;
    }

    public GatewayConfig config() {
        return config;
    }

    public HostRequests hostRequests() {
        return requests;
    }

    public ListChanges listChanges() {
        return changes;
    }

    private int heldCalls() {
        return requests.heldCallCount();
    }

    /** Metrics (for {@code /metrics}) and the audit log. */
    public Telemetry telemetry() {
        return telemetry;
    }

    public Catalogue catalogue() {
        return catalogue;
    }

    public Pool pool() {
        return pool;
    }

    public List<UpstreamStatus> status() {
        return pool.status();
    }

    /**
     * Stops watching, stops every upstream and reaps their processes. A second caller waits for
     * the first: the shutdown hook a host's SIGTERM runs must not let the JVM halt while a close
     * that began when stdin closed still waits on a child, which would be left running.
     */
    @Override
    public synchronized void close() {
        if (watcher != null) {
            watcher.close();
        }
        pool.close();
        telemetry.close();
    }

    /** The knobs tests turn; {@link #defaults} for production. */
    public record Settings(ClientFactory clients, Backoff backoff, Duration startWait, int pageSize,
                           Duration debounce, ServerIdentity identity, HeldCalls.Limits heldCalls) {

        public static Settings defaults(String version) {
            return new Settings(ClientFactory.standard(version), Backoff.DEFAULT, Duration.ofSeconds(5), 200,
                    Duration.ofMillis(100), new ServerIdentity("mcpx", version), HeldCalls.Limits.DEFAULT);
        }

        public Settings withBackoff(Backoff value) {
            return new Settings(clients, value, startWait, pageSize, debounce, identity, heldCalls);
        }

        public Settings withClients(ClientFactory value) {
            return new Settings(value, backoff, startWait, pageSize, debounce, identity, heldCalls);
        }

        public Settings withPageSize(int value) {
            return new Settings(clients, backoff, startWait, value, debounce, identity, heldCalls);
        }

        public Settings withStartWait(Duration value) {
            return new Settings(clients, backoff, value, pageSize, debounce, identity, heldCalls);
        }

        /** How long, and how many, modern hosts' calls to legacy upstreams are held between MRTR rounds. */
        public Settings withHeldCalls(HeldCalls.Limits value) {
            return new Settings(clients, backoff, startWait, pageSize, debounce, identity, value);
        }
    }
}

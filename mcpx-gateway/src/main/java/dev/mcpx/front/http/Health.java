package dev.mcpx.front.http;

import java.util.Optional;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The probes of an orchestrator, answered without a token and saying nothing about the gateway:
 * {@code /healthz} (live: the front answers) and {@code /healthz/ready} (ready: a replica of a
 * cluster can reach its Redis, without which it cannot serve legacy hosts).
 */
final class Health {

    static final String LIVE = "/healthz";
    static final String READY = "/healthz/ready";
    private static final Logger LOG = LoggerFactory.getLogger(Health.class);

    private final Optional<ClusterMembership> cluster;

    Health(Optional<ClusterMembership> cluster) {
        this.cluster = cluster;
    }

    static boolean answers(String path) {
        return LIVE.equals(path) || READY.equals(path);
    }

    void get(String path, String method, Response response, Callback callback) {
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            Replies.text(response, callback, 405, "text/plain", "method not allowed\n", "Allow", "GET, HEAD");
            return;
        }
        boolean ok = LIVE.equals(path) || ready();
        Replies.text(response, callback, ok ? 200 : 503, "application/json",
                ok ? "{\"status\":\"ok\"}\n" : "{\"status\":\"unavailable\"}\n", "Cache-Control", "no-store");
    }

    private boolean ready() {
        if (cluster.isEmpty()) {
            return true;
        }
        try {
            cluster.get().members();
            return true;
        } catch (SessionStoreException e) {
            // the probe's body says nothing; the replica's log says why
            LOG.warn("not ready: {}", e.getMessage());
            return false;
        }
    }
}

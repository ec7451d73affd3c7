package dev.mcpx.client;

import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.RequestId;
import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Keeps one modern {@code subscriptions/listen} open for the list-change notifications the
 * upstream advertises (watched resources have their own stream: {@link ResourceWatch}). A stream
 * that ends (dropped, or closed gracefully by the server) is re-opened with bounded exponential
 * backoff; a JSON-RPC refusal such as {@code -32601} is definitive and ends the loop, so a server
 * without subscriptions costs one request.
 */
final class ListenLoop {

    private static final Logger log = LoggerFactory.getLogger(ListenLoop.class);

    static final Duration MIN_BACKOFF = Duration.ofMillis(100);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** A subscription that lived this long was healthy: the next failure starts from the minimum again. */
    private static final Duration HEALTHY = Duration.ofSeconds(30);

    private final String name;
    private final ObjectNode filter;
    private final Listen listen;
    /** The request id of the listen now open; list changes naming another are stale or not ours. */
    private volatile RequestId live;
    private volatile boolean stopped;
    private volatile Thread thread;

    /**
     * @param filter the list-change part of the filter (may be empty)
     * @param listen sends {@code subscriptions/listen} with these params, reports its request id
     *     once sent, and blocks until it ends or the cancellation fires
     */
    ListenLoop(String name, ObjectNode filter, Listen listen) {
        this.name = name;
        this.filter = filter == null ? Json.object() : filter;
        this.listen = listen;
    }

    /** Sends one {@code subscriptions/listen}: {@code sent} hears its request id before the server can answer. */
    interface Listen {
        void open(ObjectNode params, Cancellation cancellation, Consumer<RequestId> sent);
    }

    /**
     * Whether a list change with these params belongs to the listen now open (stdio.md: clients
     * correlate by {@code io.modelcontextprotocol/subscriptionId}); one without an id is given the
     * benefit of the doubt, as {@link ResourceWatch#isLive} does.
     */
    boolean isLive(ObjectNode params) {
        ObjectNode meta = Json.objectAt(params, MetaKeys.META);
        RequestId named = RequestId.fromJson(meta == null ? null : meta.get(MetaKeys.SUBSCRIPTION_ID));
        return named == null || named.equals(live);
    }

    /** The notification filter the server's capabilities make worth asking for, or null for none. */
    static ObjectNode filterFor(ObjectNode capabilities) {
        ObjectNode filter = Json.object();
        if (capabilities != null) {
            if (capabilities.path("tools").path("listChanged").asBoolean(false)) {
                filter.put("toolsListChanged", true);
            }
            if (capabilities.path("prompts").path("listChanged").asBoolean(false)) {
                filter.put("promptsListChanged", true);
            }
            if (capabilities.path("resources").path("listChanged").asBoolean(false)) {
                filter.put("resourcesListChanged", true);
            }
        }
        return filter.isEmpty() ? null : filter;
    }

    synchronized void start() {
        thread = Thread.ofVirtual().name("mcpx-listen-" + name).start(this::run);
    }

    void stop() {
        stopped = true;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    private void run() {
        Duration backoff = MIN_BACKOFF;
        while (!stopped) {
            long started = System.nanoTime();
            Cancellation cancellation = new Cancellation();
            try {
                ObjectNode wanted = filter.deepCopy();
                if (wanted.isEmpty()) {
                    return;
                }
                ObjectNode params = Json.object();
                params.set("notifications", wanted);
                try {
                    listen.open(params, cancellation, id -> live = id);
                } finally {
                    live = null;
                }
                log.info("{}: upstream ended its subscription; re-opening", name);
            } catch (McpErrorException e) {
                log.info("{}: upstream refused subscriptions/listen ({}); not re-opening", name, e.getMessage());
                return;
            } catch (HttpStatusException e) {
                if (!stopped && !isTransient(e.status())) {
                    log.info("{}: subscriptions/listen answered HTTP {}; not re-opening", name, e.status());
                    return;
                }
            } catch (McpException e) {
                if (!stopped) {
                    log.info("{}: subscription stream ended unexpectedly ({}); re-opening in {} ms",
                            name, e.getMessage(), backoff.toMillis());
                }
            }
            if (Duration.ofNanos(System.nanoTime() - started).compareTo(HEALTHY) > 0) {
                backoff = MIN_BACKOFF;
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    private static boolean isTransient(int status) {
        return status >= 500 || status == 408 || status == 429;
    }
}

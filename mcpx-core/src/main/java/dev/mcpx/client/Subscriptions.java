package dev.mcpx.client;

import dev.mcpx.client.Exchange.Attempt;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.transport.Transport;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the client keeps asked for across requests: the modern {@code subscriptions/listen} for
 * list changes, the modern resource watch, and the resources subscribed on a legacy session.
 */
final class Subscriptions {

    private static final Logger log = LoggerFactory.getLogger(Subscriptions.class);
    /** A subscription lives until either side ends it; the request timeout does not apply. */
    private static final Duration LISTEN_TIMEOUT = Duration.ofDays(3650);

    private final String name;
    private final boolean listenForChanges;
    private final Duration requestTimeout;
    private final Exchange exchange;
    private final FaultCondition condition;
    /** The client's request with default options, recoveries included. */
    private final BiFunction<String, ObjectNode, JsonNode> request;
    private final Supplier<ServerDescription> server;
    private final Supplier<Transport> transport;

    private volatile ListenLoop listenLoop;
    private volatile ResourceWatch resourceWatch;
    /** Resources subscribed on a legacy session: a re-initialize subscribes them again. */
    private final Set<String> legacySubscriptions = ConcurrentHashMap.newKeySet();

    Subscriptions(String name, boolean listenForChanges, Duration requestTimeout, Exchange exchange,
            FaultCondition condition, BiFunction<String, ObjectNode, JsonNode> request, Supplier<ServerDescription> server,
            Supplier<Transport> transport) {
        this.name = name;
        this.listenForChanges = listenForChanges;
        this.requestTimeout = requestTimeout;
        this.exchange = exchange;
        this.condition = condition;
        this.request = request;
        this.server = server;
        this.transport = transport;
    }

    /**
     * A modern server says its lists changed only on a {@code subscriptions/listen} (over HTTP and
     * over stdio alike: it has no GET stream, and on stdio sends nothing unasked): this client keeps
     * one open when the upstream advertises any list changes. Notifications on it reach
     * {@link Inbound} like any other.
     */
    void startListening() {
        ObjectNode filter = listenForChanges && era() == Era.MODERN
                ? ListenLoop.filterFor(server.get().capabilities()) : null;
        if (filter != null) {
            listenLoop().start();
        }
    }

    /** Ends the list-change listen of a connection being replaced; {@link #startListening} opens the next. */
    void stopListening() {
        ListenLoop loop = listenLoop;
        listenLoop = null;
        if (loop != null) {
            loop.stop();
        }
    }

    private synchronized ListenLoop listenLoop() {
        if (listenLoop == null) {
            ObjectNode filter = listenForChanges ? ListenLoop.filterFor(server.get().capabilities()) : null;
            listenLoop = new ListenLoop(name, filter, this::listen);
        }
        return listenLoop;
    }

    private synchronized ResourceWatch resourceWatch() {
        if (resourceWatch == null) {
            resourceWatch = new ResourceWatch(name, this::listen, requestTimeout);
        }
        return resourceWatch;
    }

    /** Whether a modern list change with these params comes from the list-change listen now open. */
    boolean listChangeIsLive(ObjectNode params) {
        ListenLoop loop = listenLoop;
        return loop != null && loop.isLive(params);
    }

    /** The resource watch, or null while nothing was ever watched. */
    ResourceWatch currentWatch() {
        return resourceWatch;
    }

    /** A listen is a request of mcpx's own: refused at once while a fault condition holds, like any other. */
    private void listen(ObjectNode params, Cancellation cancellation, Consumer<RequestId> sent) {
        UpstreamUnavailableException refused = condition.refusal(Methods.SUBSCRIPTIONS_LISTEN, false);
        if (refused != null) {
            throw refused;
        }
        Attempt attempt = new Attempt(server.get().protocolVersion());
        attempt.sent = sent;
        exchange.run(Methods.SUBSCRIPTIONS_LISTEN, params,
                RequestOptions.defaults().withTimeout(LISTEN_TIMEOUT).withCancellation(cancellation), attempt);
    }

    void subscribeResource(String uri) {
        if (era() == Era.MODERN) {
            resourceWatch().watch(uri);
        } else {
            request.apply(Methods.RESOURCES_SUBSCRIBE, Json.object().put("uri", uri));
            legacySubscriptions.add(uri);
        }
    }

    void unsubscribeResource(String uri) {
        if (era() == Era.MODERN) {
            resourceWatch().unwatch(uri);
        } else {
            legacySubscriptions.remove(uri);
            request.apply(Methods.RESOURCES_UNSUBSCRIBE, Json.object().put("uri", uri));
        }
    }

    /** A restarted legacy upstream forgot the session's subscriptions: ask again (off the caller's thread). */
    void resubscribeLegacy() {
        if (legacySubscriptions.isEmpty()) {
            return;
        }
        Thread.ofVirtual().name("mcpx-resubscribe-" + name).start(() -> {
            for (String uri : List.copyOf(legacySubscriptions)) {
                try {
                    request.apply(Methods.RESOURCES_SUBSCRIBE, Json.object().put("uri", uri));
                } catch (McpException e) {
                    log.warn("{}: could not subscribe to {} again after the re-initialize: {}", name, uri, e.getMessage());
                }
            }
        });
    }

    /** On close: ends the listen and the watch. */
    void stop() {
        ListenLoop loop = listenLoop;
        if (loop != null) {
            loop.stop();
        }
        ResourceWatch watch = resourceWatch;
        if (watch != null) {
            watch.stop();
        }
    }

    private Era era() {
        ServerDescription s = server.get();
        return s == null ? null : s.era();
    }
}

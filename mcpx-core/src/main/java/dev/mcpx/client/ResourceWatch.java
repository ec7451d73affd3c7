package dev.mcpx.client;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Modern resource subscriptions (2026-07-28): the watched URIs travel in the
 * {@code resourceSubscriptions} filter of a {@code subscriptions/listen} stream of their own, so
 * the list-change stream is never disturbed. A stream's filter is fixed when it opens, so a new
 * set opens a new stream and the old one is retired only once the new one is acknowledged
 * (make before break): no update falls into a gap, and a retired stream's late updates are
 * dropped ({@link #isLive}), so none arrives twice. A stream that ends unexpectedly is re-opened
 * with backoff; a JSON-RPC refusal is reported to the callers waiting for it.
 */
final class ResourceWatch {

    private static final Logger log = LoggerFactory.getLogger(ResourceWatch.class);
    private static final Duration HEALTHY = Duration.ofSeconds(30);

    /** Sends {@code subscriptions/listen} with these params, reports its id when sent, blocks until it ends. */
    @FunctionalInterface
    interface Listen {
        void listen(ObjectNode params, Cancellation cancellation, Consumer<RequestId> sent);
    }

    /** One {@code subscriptions/listen} request and what the server agreed to on it. */
    private static final class Stream {
        final Set<String> requested;
        final Cancellation cancellation = new Cancellation();
        final long openedNanos = System.nanoTime();
        volatile RequestId id;
        Set<String> agreed;

        Stream(Set<String> requested) {
            this.requested = requested;
        }
    }

    private final String name;
    private final Listen listen;
    private final Duration ackTimeout;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Set<String> wanted = new LinkedHashSet<>();
    /** Open streams, oldest first; the last is the newest filter. */
    private final List<Stream> streams = new ArrayList<>();
    private McpException refusal;
    private long opened;
    private Duration backoff = ListenLoop.MIN_BACKOFF;
    private boolean stopped;

    ResourceWatch(String name, Listen listen, Duration ackTimeout) {
        this.name = name;
        this.listen = listen;
        this.ackTimeout = ackTimeout;
    }

    /**
     * Adds {@code uri} and returns once a stream the server acknowledged covers it.
     *
     * @throws McpException the upstream refused the stream or declined the URI, or no
     *                      acknowledgment came within the timeout
     */
    void watch(String uri) {
        lock.lock();
        try {
            requireRunning();
            Stream newest = streams.isEmpty() ? null : streams.getLast();
            if (wanted.add(uri) || refusal != null || newest == null) {
                refusal = null;
                newest = open();
            }
            try {
                awaitAcknowledged(newest, uri);
            } catch (McpException e) {
                wanted.remove(uri);
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Removes {@code uri}; returns once its updates stop (the narrower stream acknowledged, or none left). */
    void unwatch(String uri) {
        lock.lock();
        try {
            if (!wanted.remove(uri) || stopped) {
                return;
            }
            if (wanted.isEmpty()) {
                retireAll("no resource watched any more");
                return;
            }
            try {
                awaitAcknowledged(open(), null);
            } catch (McpException e) {
                // break before make: the old streams still carry uri, and its updates must stop now
                log.info("{}: narrowing the resource subscription failed ({}); re-opening it", name, e.getMessage());
                retireAll("resource subscription narrowed");
                open();
            }
        } finally {
            lock.unlock();
        }
    }

    /** A {@code notifications/subscriptions/acknowledged}'s params: true when it was for one of these streams. */
    boolean acknowledged(ObjectNode params) {
        ObjectNode notifications = Json.objectAt(params, "notifications");
        lock.lock();
        try {
            Stream stream = find(subscriptionId(params));
            if (stream == null) {
                return false;
            }
            Set<String> agreed = new LinkedHashSet<>();
            if (notifications != null && notifications.get("resourceSubscriptions") instanceof ArrayNode uris) {
                uris.forEach(uri -> {
                    if (uri.isString()) {
                        agreed.add(uri.asString());
                    }
                });
            }
            stream.agreed = agreed;
            retireOlderThan(stream);
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether a notification with these params comes from a stream still in use (one with no
     * subscription id is given the benefit of the doubt).
     */
    boolean isLive(ObjectNode params) {
        RequestId id = subscriptionId(params);
        if (id == null) {
            return true;
        }
        lock.lock();
        try {
            Stream stream = find(id);
            return stream != null && stream.agreed != null;
        } finally {
            lock.unlock();
        }
    }

    private static RequestId subscriptionId(ObjectNode params) {
        ObjectNode meta = Json.objectAt(params, MetaKeys.META);
        return RequestId.fromJson(meta == null ? null : meta.get(MetaKeys.SUBSCRIPTION_ID));
    }

    void stop() {
        lock.lock();
        try {
            stopped = true;
            retireAll("client closed");
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void requireRunning() {
        if (stopped) {
            throw new UpstreamUnavailableException(name + ": client is closed");
        }
    }

    private Stream find(RequestId id) {
        if (id == null) {
            return null;
        }
        for (Stream stream : streams) {
            if (id.equals(stream.id)) {
                return stream;
            }
        }
        return null;
    }

    /** Opens a stream for the current set; call with the lock held. */
    private Stream open() {
        Stream stream = new Stream(Set.copyOf(wanted));
        streams.add(stream);
        opened++;
        ObjectNode params = Json.object();
        ArrayNode uris = params.putObject("notifications").putArray("resourceSubscriptions");
        wanted.forEach(uris::add);
        Thread.ofVirtual().name("mcpx-watch-" + name).start(() -> run(stream, params));
        return stream;
    }

    private void run(Stream stream, ObjectNode params) {
        McpException failure = null;
        try {
            listen.listen(params, stream.cancellation, id -> stream.id = id);
        } catch (McpException e) {
            failure = e;
        }
        ended(stream, failure);
    }

    private void ended(Stream stream, McpException failure) {
        lock.lock();
        try {
            boolean newest = !streams.isEmpty() && streams.getLast() == stream;
            streams.remove(stream);
            changed.signalAll();
            if (stopped || stream.cancellation.isCancelled() || !newest || wanted.isEmpty()) {
                return;
            }
            if (failure instanceof McpErrorException
                    || failure instanceof HttpStatusException http && !isTransient(http.status())) {
                log.info("{}: upstream refused the resource subscription ({})", name, failure.getMessage());
                refusal = failure;
                return;
            }
            boolean healthy = Duration.ofNanos(System.nanoTime() - stream.openedNanos).compareTo(HEALTHY) > 0;
            backoff = healthy ? ListenLoop.MIN_BACKOFF : backoff;
            Duration delay = backoff;
            backoff = backoff.multipliedBy(2).compareTo(ListenLoop.MAX_BACKOFF) > 0
                    ? ListenLoop.MAX_BACKOFF : backoff.multipliedBy(2);
            long seen = opened;
            log.info("{}: resource subscription stream ended ({}); re-opening in {} ms", name,
                    failure == null ? "closed by the upstream" : failure.getMessage(), delay.toMillis());
            Thread.ofVirtual().name("mcpx-watch-reopen-" + name).start(() -> reopenAfter(delay, seen));
        } finally {
            lock.unlock();
        }
    }

    /** Re-opens the stream unless a watch or unwatch opened a newer one meanwhile. */
    private void reopenAfter(Duration delay, long seen) {
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            return;
        }
        lock.lock();
        try {
            if (!stopped && opened == seen && !wanted.isEmpty()) {
                open();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits, lock held, until {@code stream} is acknowledged (and, when {@code uri} is given,
     * agreed to it) or superseded by a newer acknowledged stream.
     */
    private void awaitAcknowledged(Stream stream, String uri) {
        long deadline = System.nanoTime() + ackTimeout.toNanos();
        while (true) {
            requireRunning();
            Stream answered = stream.agreed != null ? stream : acknowledgedNewerThan(stream);
            if (answered != null) {
                if (uri != null && !answered.agreed.contains(uri)) {
                    throw new McpErrorException(new JsonRpcError(ErrorCodes.INVALID_PARAMS,
                            name + ": the upstream did not agree to send updates of " + uri, Json.object().put("uri", uri)));
                }
                return;
            }
            if (!streams.contains(stream)) {
                if (refusal != null) {
                    throw refusal;
                }
                // it ended before its acknowledgment: the re-open (or a newer watch) takes over
                Stream newest = streams.isEmpty() ? null : streams.getLast();
                if (newest != null) {
                    stream = newest;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new RequestTimeoutException("subscriptions/listen acknowledgment", ackTimeout);
            }
            try {
                changed.awaitNanos(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RequestCancelledException("interrupted");
            }
        }
    }

    private Stream acknowledgedNewerThan(Stream stream) {
        int index = streams.indexOf(stream);
        for (int i = streams.size() - 1; i > index && index >= 0; i--) {
            if (streams.get(i).agreed != null) {
                return streams.get(i);
            }
        }
        return null;
    }

    /** Cancels every stream older than {@code keep}: its updates now come on {@code keep}. */
    private void retireOlderThan(Stream keep) {
        List<Stream> older = streams.subList(0, streams.indexOf(keep));
        older.forEach(stream -> stream.cancellation.cancel("resource subscription superseded"));
        older.clear();
    }

    private void retireAll(String why) {
        streams.forEach(stream -> stream.cancellation.cancel(why));
        streams.clear();
    }

    private static boolean isTransient(int status) {
        return status >= 500 || status == 408 || status == 429;
    }
}

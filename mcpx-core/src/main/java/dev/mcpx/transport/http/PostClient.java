package dev.mcpx.transport.http;

import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.client.ByteBufferRequestContent;
import org.eclipse.jetty.client.Destination;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * One upstream's POSTs (the hot path of every call) through Jetty's HTTP client, for the legacy
 * and the modern Streamable HTTP transport alike: it spent half the CPU per call of the JDK's on
 * the hop (docs/benchmarks.md). HTTP/1.1; no idle timeout, so a tool that runs for minutes is not
 * cut off (an idle pooled connection goes when the server closes it or the transport closes); no
 * cap on connections to the one upstream, as the JDK's client has none: a host's calls must not
 * queue behind each other's.
 *
 * <p>Every upstream shares one Jetty client per connect timeout (one selector, scheduler and
 * thread pool instead of three threads each, most of an idle gateway's threads), while its
 * requests carry a tag of its own, so that they get connections of their own that its close ends;
 * the shared client keeps no cookies, so no upstream sees another's (nor did the JDK's client).
 */
final class PostClient implements AutoCloseable {

    static {
        JettyCacheLines.preset();
    }

    private static final ConcurrentMap<Duration, HttpClient> SHARED = new ConcurrentHashMap<>();
    private static final AtomicLong UPSTREAMS = new AtomicLong();

    private final HttpClient jetty;
    /** This upstream's key into the shared client's destinations (connection pools). */
    private final String tag;

    PostClient(Duration connectTimeout) {
        this.jetty = SHARED.computeIfAbsent(connectTimeout, PostClient::start);
        this.tag = "mcpx-upstream-" + UPSTREAMS.incrementAndGet();
    }

    /** Never stopped: its threads are daemons, and each upstream's close ends its own connections. */
    private static HttpClient start(Duration connectTimeout) {
        // Blocking work (a DNS look-up) takes a pool thread: the cap is for all upstreams at once.
        QueuedThreadPool threads = new QueuedThreadPool(256, 1);
        threads.setName("mcpx-upstream-http");
        threads.setDaemon(true);
        threads.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        HttpClientTransportOverHTTP http11 = new HttpClientTransportOverHTTP(1);
        // An answer's callbacks never block (PostAnswer): the selector thread runs them itself
        // instead of handing each answer to a new virtual thread.
        http11.setInvocationType(Invocable.InvocationType.NON_BLOCKING);
        TlsOnFirstUse.deferJetty(http11.getClientConnector());
        HttpClient jetty = new HttpClient(http11);
        jetty.setExecutor(threads);
        jetty.setScheduler(new ScheduledExecutorScheduler("mcpx-upstream-http-scheduler", true));
        jetty.setHttpCookieStore(new HttpCookieStore.Empty());
        jetty.setConnectTimeout(connectTimeout.toMillis());
        jetty.setIdleTimeout(0);
        jetty.setMaxConnectionsPerDestination(100_000);
        jetty.setMaxRequestsQueuedPerDestination(100_000);
        jetty.setFollowRedirects(true);
        try {
            jetty.start();
        } catch (Exception e) {
            throw new IllegalStateException("could not start the HTTP client: " + e, e);
        }
        return jetty;
    }

    /**
     * The headers every POST to {@code endpoint} carries: its configured ones, its authorization
     * and an {@code Accept} of JSON or SSE; the transport adds its own.
     */
    static PostHeaders headers(UpstreamEndpoint.Http endpoint) {
        PostHeaders headers = new PostHeaders();
        endpoint.headers().forEach(headers::add);
        endpoint.authorization().headers("POST", endpoint.url()).forEach(headers::put);
        return headers.put("Accept", LegacyHttpTransport.ACCEPT_BOTH);
    }

    /** A JSON POST of {@code body} to {@code url} with {@code headers}. */
    Request post(URI url, PostHeaders headers, byte[] body) {
        return jetty.newRequest(url).method("POST").tag(tag)
                .headers(fields -> headers.forEach(fields::add))
                .body(new ByteBufferRequestContent("application/json", ByteBuffer.wrap(body)));
    }

    HttpClient sharedClient() {
        return jetty;
    }

    /** Closes this upstream's connections (its exchanges are aborted by the transport first). */
    @Override
    public void close() {
        for (Destination destination : jetty.getDestinations()) {
            if (tag.equals(destination.getOrigin().getTag())) {
                jetty.removeDestination(destination);
                LifeCycle.stop(destination);
            }
        }
    }
}

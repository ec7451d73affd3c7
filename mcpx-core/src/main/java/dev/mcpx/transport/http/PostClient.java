package dev.mcpx.transport.http;

import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import org.eclipse.jetty.client.ByteBufferRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty's HTTP client for one upstream's POSTs (the hot path of every call), for the legacy and
 * the modern Streamable HTTP transport alike: it spent half the CPU per call of the JDK's on the
 * hop (docs/benchmarks.md). HTTP/1.1; no idle timeout of its own, so a tool that runs for minutes
 * is not cut off (an idle pooled connection goes when the server closes it); no cap on connections
 * to the one upstream, as the JDK's client has none: a host's calls must not queue behind each other's.
 */
final class PostClient implements AutoCloseable {

    private final HttpClient jetty;

    PostClient(Duration connectTimeout) {
        QueuedThreadPool threads = new QueuedThreadPool(16, 1);
        threads.setName("mcpx-upstream-http");
        threads.setDaemon(true);
        threads.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        HttpClientTransportOverHTTP http11 = new HttpClientTransportOverHTTP(1);
        // An answer's callbacks never block (PostAnswer): the selector thread runs them itself
        // instead of handing each answer to a new virtual thread.
        http11.setInvocationType(Invocable.InvocationType.NON_BLOCKING);
        jetty = new HttpClient(http11);
        jetty.setExecutor(threads);
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
    }

    /**
     * A JSON POST to {@code endpoint} with its configured headers and authorization, accepting
     * JSON or SSE; the transport adds its own headers.
     */
    Request post(UpstreamEndpoint.Http endpoint, String body) {
        URI url = endpoint.url();
        return jetty.newRequest(url).method("POST")
                .headers(headers -> {
                    endpoint.headers().forEach(headers::add);
                    endpoint.authorization().headers("POST", url).forEach(headers::put);
                    headers.put("Accept", LegacyHttpTransport.ACCEPT_BOTH);
                })
                .body(new ByteBufferRequestContent("application/json", ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8))));
    }

    @Override
    public void close() throws Exception {
        jetty.stop();
    }
}

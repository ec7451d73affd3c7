package dev.mcpx.transport.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;

/**
 * Tuning of the legacy HTTP transports (Streamable HTTP up to 2025-11-25, and HTTP+SSE).
 *
 * @param connectTimeout    TCP connect limit; for HTTP+SSE also the wait for the {@code endpoint} event
 * @param maxEventBytes     largest SSE event accepted
 * @param maxMessageBytes   largest JSON body or JSON-RPC message accepted
 * @param maxResumeAttempts GETs with {@code Last-Event-ID} tried in a row without progress before
 *                          the request fails with a stream-lost error
 * @param defaultRetry      wait before a reconnect when the server sent no {@code retry:}
 * @param maxListenBackoff  cap of the listen stream's reconnect backoff
 * @param closeTimeout      how long {@code close()} waits for the session DELETE
 */
public record LegacyHttpOptions(Duration connectTimeout, int maxEventBytes, int maxMessageBytes, int maxResumeAttempts,
                                Duration defaultRetry, Duration maxListenBackoff, Duration closeTimeout) {

    public static final int DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
    private static final ConcurrentMap<Duration, HttpClient> SHARED_PLAIN_HTTP = new ConcurrentHashMap<>();

    public LegacyHttpOptions {
        if (maxEventBytes <= 0 || maxMessageBytes <= 0 || maxResumeAttempts < 0) {
            throw new IllegalArgumentException("maxEventBytes and maxMessageBytes must be positive, maxResumeAttempts not negative");
        }
    }

    public static LegacyHttpOptions defaults() {
        return new LegacyHttpOptions(Duration.ofSeconds(10), DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_EVENT_BYTES, 3,
                Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(2));
    }

    /**
     * One client per transport, for all but its request POSTs ({@link PostClient}); HTTP/1.1 on
     * plain http (no h2c upgrade dance, and TLS set up only if a redirect leads to https), HTTP/2
     * offered on https.
     * Its async work runs on virtual threads: the default executor grows a platform thread per
     * concurrent exchange, which the chaos soak saw pile up under load.
     */
    HttpClient newHttpClient(URI url) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .executor(Executors.newVirtualThreadPerTaskExecutor());
        if ("http".equalsIgnoreCase(url.getScheme())) {
            builder.version(HttpClient.Version.HTTP_1_1)
                    .sslContext(TlsOnFirstUse.jdkContext()).sslParameters(TlsOnFirstUse.jdkParameters());
        }
        return builder.build();
    }

    /**
     * The client of a Streamable HTTP transport's GET streams, notifications and DELETE. On plain
     * http every upstream with the same connect timeout shares one (one selector thread instead
     * of one each): it keeps no cookies or credentials, and HTTP/1.1 gives each stream a
     * connection of its own. On https each transport keeps its own, where HTTP/2 would put
     * upstreams on one host into one connection and its flow control.
     */
    HttpClient streamClient(URI url) {
        return sharesStreamClient(url) ? SHARED_PLAIN_HTTP.computeIfAbsent(connectTimeout, timeout -> newHttpClient(url))
                : newHttpClient(url);
    }

    /** Whether {@link #streamClient} is shared, so that a transport must not shut it down. */
    static boolean sharesStreamClient(URI url) {
        return "http".equalsIgnoreCase(url.getScheme());
    }

    /** Sets both the SSE event and the JSON message limit. */
    public LegacyHttpOptions withMaxEventBytes(int bytes) {
        return new LegacyHttpOptions(connectTimeout, bytes, bytes, maxResumeAttempts, defaultRetry, maxListenBackoff, closeTimeout);
    }

    public LegacyHttpOptions withLimits(int maxMessage, int maxEvent) {
        return new LegacyHttpOptions(connectTimeout, maxEvent, maxMessage, maxResumeAttempts, defaultRetry, maxListenBackoff, closeTimeout);
    }

    public LegacyHttpOptions withMaxResumeAttempts(int attempts) {
        return new LegacyHttpOptions(connectTimeout, maxEventBytes, maxMessageBytes, attempts, defaultRetry, maxListenBackoff, closeTimeout);
    }

    public LegacyHttpOptions withDefaultRetry(Duration retry) {
        return new LegacyHttpOptions(connectTimeout, maxEventBytes, maxMessageBytes, maxResumeAttempts, retry, maxListenBackoff, closeTimeout);
    }

    public LegacyHttpOptions withConnectTimeout(Duration timeout) {
        return new LegacyHttpOptions(timeout, maxEventBytes, maxMessageBytes, maxResumeAttempts, defaultRetry, maxListenBackoff, closeTimeout);
    }
}

package dev.mcpx.transport.http;

import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;

/**
 * What a POST that failed before its response's status line and headers means for the message
 * it carried. The JDK's HttpClient resends such a request by itself only when it is a GET or
 * HEAD (or when {@code jdk.httpclient.enableAllMethodRetry} is set JVM-wide, which would repeat
 * destructive tools blindly), so a POST on a kept-alive connection the upstream closed as it
 * restarted or idled out surfaces here as an {@link IOException} ("header parser received no
 * bytes", a reset, an EOF): the message left and no response came.
 */
final class PostFailure {

    private PostFailure() {
    }

    /**
     * A connect failure or a TLS handshake that failed: the message never left, the upstream is
     * unavailable. A timeout: the upstream is stalled. Any other I/O failure: the message left
     * and nothing came back, {@link StreamLostException#noResponse}, for the client to decide
     * about sending it again. (A status line cut half-way counts as none: the JDK tells the two
     * apart only in its messages, and either way the upstream may have run the message.)
     *
     * @param id   the request, or null for a notification or a response
     * @param what    the method or "response to ID", for the message
     * @param address the URL alone: a refused connection says nothing of the era, and the probe
     *                of an era is often the first thing sent
     */
    static McpException of(RequestId id, String what, String upstream, String address, Throwable cause) {
        if (neverLeft(cause)) {
            return UpstreamUnavailableException.unreachable("cannot connect to " + address + ": " + cause, cause);
        }
        if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
            return new UpstreamUnavailableException(upstream + " did not answer " + what + " in time: " + cause, cause);
        }
        if (cause instanceof IOException) {
            return StreamLostException.noResponse(id, what, upstream, cause);
        }
        return new UpstreamUnavailableException(upstream + " failed: " + cause, cause);
    }

    /** Jetty's client (request POSTs) reports a connect timeout as a {@link SocketTimeoutException}; the JDK's never throws one. */
    private static boolean neverLeft(Throwable cause) {
        return cause instanceof ConnectException || cause instanceof SSLHandshakeException
                || cause instanceof HttpConnectTimeoutException || cause instanceof SocketTimeoutException
                || cause != null && cause.getCause() instanceof ConnectException;
    }
}

package dev.mcpx.transport.http;

import dev.mcpx.protocol.MessageBytes;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.transport.HttpAuthorization;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * One plain-http upstream's request POSTs that the sending thread writes and whose answers it
 * reads itself ({@link dev.mcpx.transport.Outbound#senderCollects()}), on kept-alive connections
 * of this upstream's own, with blocking I/O: a call then crosses no selector and no other thread,
 * which cost about 100 us of CPU per call on the hop against Jetty's client (bench, floor).
 * Event streams are handed to the receiver for a thread of its own, as Jetty's answers are.
 * TLS, bodies over {@link #MAX_DIRECT_BODY} and headers that need encoding go through Jetty's
 * client; so does everything once the upstream answered a redirect (Jetty's client follows them).
 */
final class DirectPosts implements AutoCloseable {

    /** A larger request could fill the socket's buffer and block its writer, under the client's session lock. */
    static final int MAX_DIRECT_BODY = 64 * 1024;

    private final URI url;
    private final Duration connectTimeout;
    private final HttpAuthorization authorization;
    private final int maxBody;
    private final int maxErrorBody;
    private final byte[] requestLine;
    private final Deque<PlainConnection> idle = new ConcurrentLinkedDeque<>();
    private final Map<RequestId, Sent> sent = new ConcurrentHashMap<>();
    private volatile boolean redirected;
    private volatile boolean closed;

    /** A request written, its answer not yet read. {@code onRedirect}: sends it again through Jetty's client, or null. */
    private record Sent(PlainConnection connection, PostAnswer.Receiver receiver, String authorization, Runnable onRedirect) {
    }

    /**
     * @param maxBody      largest 2xx body: a longer one fails the answer
     * @param maxErrorBody the part of a non-2xx body kept
     */
    DirectPosts(URI url, Duration connectTimeout, HttpAuthorization authorization, int maxBody, int maxErrorBody) {
        this.url = url;
        this.connectTimeout = connectTimeout;
        this.authorization = authorization;
        this.maxBody = maxBody;
        this.maxErrorBody = maxErrorBody;
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String target = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        String host = url.getPort() < 0 ? url.getHost() : url.getHost() + ":" + url.getPort();
        this.requestLine = ("POST " + target + " HTTP/1.1\r\nHost: " + host + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Whether requests to {@code url} can go this way at all. */
    static boolean serves(URI url) {
        return "http".equalsIgnoreCase(url.getScheme()) && url.getHost() != null && url.getRawUserInfo() == null;
    }

    /** Whether this request can go this way: false sends it through Jetty's client. */
    boolean takes(PostHeaders headers, byte[] body) {
        return !redirected && !closed && body.length <= MAX_DIRECT_BODY && headers.plainAscii();
    }

    /**
     * Writes the request for {@link #collect} to read its answer. A connection that cannot be
     * opened, or a write that fails, is reported to {@code receiver} at once, as Jetty's client
     * reports it; a kept-alive connection the server closed is noticed before it is used.
     */
    void send(RequestId id, PostHeaders headers, byte[] body, PostAnswer.Receiver receiver, Runnable onRedirect) {
        byte[] request = render(headers, body);
        PlainConnection connection = null;
        try {
            connection = reuse();
            if (connection != null) {
                try {
                    connection.write(request);
                } catch (IOException staleWrite) {
                    // a write that fails left nothing the server read: the request goes on a new connection
                    connection.close();
                    connection = null;
                }
            }
            if (connection == null) {
                connection = PlainConnection.open(url, connectTimeout);
                connection.write(request);
            }
        } catch (IOException e) {
            if (connection != null) {
                connection.close();
            }
            receiver.failed(null, e);
            return;
        }
        sent.put(id, new Sent(connection, receiver, headers.get("Authorization"), onRedirect));
        if (closed) {
            abandon(id);
        }
    }

    private PlainConnection reuse() {
        PlainConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            if (connection.stillOpen()) {
                return connection;
            }
            connection.close();
        }
        return null;
    }

    private byte[] render(PostHeaders headers, byte[] body) {
        StringBuilder head = new StringBuilder(512);
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n\r\n");
        byte[] rest = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] request = Arrays.copyOf(requestLine, requestLine.length + rest.length + body.length);
        System.arraycopy(rest, 0, request, requestLine.length, rest.length);
        System.arraycopy(body, 0, request, requestLine.length + rest.length, body.length);
        return request;
    }

    /**
     * Reads the answer to {@code id}, if this thread's send left one, and hands it to its
     * receiver. Past {@code within}, or once abandoned, it returns with nothing handed over: the
     * caller's own wait then ends the request as it would have ended.
     */
    void collect(RequestId id, Duration within) {
        Sent request = sent.get(id);
        if (request == null) {
            return;
        }
        PlainConnection connection = request.connection();
        PlainConnection.Head head;
        try {
            head = connection.readHead(within);
        } catch (IOException e) {
            end(id, request, null, e);
            return;
        }
        AnswerHead answer = new AnswerHead(head.status(), head.headers(), request.authorization());
        String nonce = answer.header("DPoP-Nonce");
        if (nonce != null) {
            authorization.nonceOffered(nonce);
        }
        try {
            InputStream body = connection.body(head);
            if (answer.successful() && ResponseBodies.isEventStream(answer.header("Content-Type"))) {
                connection.unbounded();
                if (sent.remove(id, request)) {
                    request.receiver().eventStream(answer, new StreamBody(body, connection));
                } else {
                    connection.close();
                }
                return;
            }
            int limit = answer.successful() ? maxBody : maxErrorBody;
            byte[] bytes = MessageBytes.readAtMost(body, limit + 1, PlainConnection.declaredLength(body));
            boolean cut = bytes.length > limit;
            if (cut) {
                connection.close();
            } else if (connection.reusable() && !closed) {
                idle.offerFirst(connection);
            } else {
                connection.close();
            }
            if (!sent.remove(id, request)) {
                return;
            }
            if (head.status() / 100 == 3 && request.onRedirect() != null) {
                redirected = true;
                request.onRedirect().run();
            } else if (cut && answer.successful()) {
                request.receiver().failed(answer,
                        new IOException("response body exceeds the limit of " + limit + " bytes (maxMessageBytes)"));
            } else {
                request.receiver().answered(answer, cut ? Arrays.copyOf(bytes, limit) : bytes);
            }
        } catch (IOException e) {
            end(id, request, answer, e);
        }
    }

    /** A read that failed: reported unless the request was abandoned, timed out or its thread interrupted. */
    private void end(RequestId id, Sent request, AnswerHead answer, IOException cause) {
        request.connection().close();
        if (sent.remove(id, request) && !(cause instanceof SocketTimeoutException) && !Thread.currentThread().isInterrupted()) {
            request.receiver().failed(answer, cause);
        }
    }

    /** Stops waiting for {@code id}: its connection closes, which ends a read blocked on it. */
    void abandon(RequestId id) {
        Sent request = sent.remove(id);
        if (request != null) {
            request.connection().close();
        }
    }

    @Override
    public void close() {
        closed = true;
        sent.keySet().forEach(this::abandon);
        PlainConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            connection.close();
        }
    }

    /** An event stream's body: closing it closes its connection, which is never reused. */
    private static final class StreamBody extends FilterInputStream {
        private final PlainConnection connection;

        StreamBody(InputStream body, PlainConnection connection) {
            super(body);
            this.connection = connection;
        }

        @Override
        public void close() {
            connection.close();
        }
    }
}

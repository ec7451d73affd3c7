package dev.mcpx.transport.http;

import dev.mcpx.protocol.HeaderValues;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ModernMeta;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.TasksExtension;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.TransportKind;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The 2026-07-28 Streamable HTTP transport: stateless, every message its own POST, each
 * request's response on its own body (one JSON object or an SSE stream scoped to the request).
 *
 * <p>Headers mirror the body: {@code MCP-Protocol-Version} is read from the message's
 * {@code _meta}, {@code Mcp-Method} from its method, {@code Mcp-Name} from {@code params.name},
 * {@code params.uri} or (tasks extension) {@code params.taskId}; the client adds {@code Mcp-Param-*} through {@link Outbound#headers()}.
 * It never sends GET, DELETE, {@code Mcp-Session-Id} or {@code Last-Event-ID}: the modern era
 * has no sessions and no resumption, so a response stream that ends without its response is
 * reported at once as {@link StreamLostException} for the client to decide about re-issuing.
 *
 * <p>{@link #send} hands a request over and returns: its response and every failure (HTTP
 * status, connect failure, lost stream) arrive as events, so the client's request timeout
 * covers the whole wait. Notifications are sent synchronously and fail by exception.
 */
final class ModernHttpTransport implements Transport {

    private static final Logger LOG = LoggerFactory.getLogger(ModernHttpTransport.class);

    static final String ACCEPT = "application/json, text/event-stream";
    /** Non-2xx bodies are diagnostics or one JSON-RPC error: a small cap is plenty. */
    private static final int ERROR_BODY_LIMIT = 64 * 1024;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Headers this transport owns or must never send; neither config nor the client may set them. */
    private static final Set<String> RESERVED_HEADERS = Set.of("mcp-protocol-version", "mcp-method", "mcp-name",
            "mcp-session-id", "last-event-id", "accept", "content-type");

    private final UpstreamEndpoint.Http endpoint;
    private final PostClient posts;
    /** Request POSTs to plain http that their sender writes and reads itself; null for https. */
    private final DirectPosts direct;
    private final JsonRpcCodec codec;
    private final ModernResponseReader reader;
    private final Map<RequestId, Exchange> exchanges = new ConcurrentHashMap<>();
    private volatile Consumer<TransportEvent> events;
    private volatile boolean closed;

    /** One request in flight: its POST, then its response stream when the answer is one. */
    private static final class Exchange {
        /** Ends the POST on whichever client carries it: closing Jetty's body stream alone does not end a stalled one. */
        private final Consumer<IOException> abort;
        volatile InputStream body;
        volatile boolean cancelled;

        Exchange(Consumer<IOException> abort) {
            this.abort = abort;
        }

        void cancel() {
            cancelled = true;
            abort.accept(new IOException("abandoned"));
            closeQuietly(body);
        }
    }

    ModernHttpTransport(UpstreamEndpoint.Http endpoint) {
        this(endpoint, JsonRpcCodec.DEFAULT_MAX_CHARS);
    }

    /** @param maxMessageBytes the largest JSON body or SSE event accepted */
    ModernHttpTransport(UpstreamEndpoint.Http endpoint, int maxMessageBytes) {
        this(endpoint, maxMessageBytes, maxMessageBytes);
    }

    /**
     * @param maxMessageBytes the largest JSON body or JSON-RPC message accepted
     * @param maxEventBytes   the largest SSE event accepted
     */
    ModernHttpTransport(UpstreamEndpoint.Http endpoint, int maxMessageBytes, int maxEventBytes) {
        for (String name : endpoint.headers().keySet()) {
            if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("header " + name + " of " + safeUrl(endpoint.url())
                        + " is set by mcpx itself and cannot be configured");
            }
        }
        this.endpoint = endpoint;
        this.posts = new PostClient(CONNECT_TIMEOUT);
        this.codec = new JsonRpcCodec(maxMessageBytes);
        this.direct = DirectPosts.serves(endpoint.url())
                ? new DirectPosts(endpoint.url(), CONNECT_TIMEOUT, endpoint.authorization(), codec.maxChars(), ERROR_BODY_LIMIT)
                : null;
        this.reader = new ModernResponseReader(codec, maxEventBytes, description(), this::emit);
    }

    @Override
    public void start(Consumer<TransportEvent> events) {
        this.events = events;
    }

    @Override
    public void send(Outbound outbound) {
        if (closed) {
            throw new UpstreamUnavailableException(description() + " is closed");
        }
        switch (outbound.message()) {
            case Request request -> sendRequest(request, outbound.headers(), outbound.senderCollects());
            case Notification n when Methods.CANCELLED.equals(n.method()) -> cancel(n);
            case Notification notification -> sendNotification(notification, outbound.headers(), outbound.timeout());
            default -> throw new IllegalArgumentException("a client sends requests and notifications only");
        }
    }

    /**
     * Hands the request over and returns; the status line, the body and every failure arrive as
     * events. Waiting here for the status line would put the wait outside the client's request
     * timeout: a server that computes the answer before sending headers would hang the caller.
     */
    private void sendRequest(Request request, Map<String, String> extraHeaders, boolean senderCollects) {
        RequestId id = request.id();
        PostHeaders headers = postHeaders(request, request.method(), request.params(), extraHeaders);
        byte[] body = codec.encodeBytes(request);
        if (direct != null && senderCollects && direct.takes(headers, body)) {
            Exchange exchange = new Exchange(cause -> direct.abandon(id));
            exchanges.put(id, exchange);
            direct.send(id, headers, body, new Answer(id, request.method(), exchange), null);
            return;
        }
        org.eclipse.jetty.client.Request post = jettyPost(headers, body);
        Exchange exchange = new Exchange(post::abort);
        exchanges.put(id, exchange);
        post.send(new PostAnswer(endpoint.authorization(), codec.maxChars(), ERROR_BODY_LIMIT,
                new Answer(id, request.method(), exchange)));
    }

    @Override
    public void collect(RequestId id, Duration within) {
        if (direct != null) {
            direct.collect(id, within);
        }
    }

    /** What becomes of a request's answer, on Jetty's threads or the collecting sender's. */
    private final class Answer implements PostAnswer.Receiver {
        private final RequestId id;
        private final String method;
        private final Exchange exchange;

        Answer(RequestId id, String method, Exchange exchange) {
            this.id = id;
            this.method = method;
            this.exchange = exchange;
        }

        private boolean silenced() {
            return exchange.cancelled || closed;
        }

        @Override
        public void eventStream(AnswerHead response, InputStream body) {
            exchange.body = body;
            if (silenced()) {
                exchanges.remove(id, exchange);
                closeQuietly(body);
                return;
            }
            Thread.ofVirtual().name("mcpx-modern-response-" + id).start(() -> {
                try {
                    reader.readEventStream(id, body, this::silenced);
                } finally {
                    exchanges.remove(id, exchange);
                }
            });
        }

        @Override
        public void answered(AnswerHead response, byte[] bytes) {
            exchanges.remove(id, exchange);
            int status = response.status();
            if (status / 100 == 2) {
                reader.readJsonBody(id, bytes, this::silenced);
                return;
            }
            if (silenced()) {
                return;
            }
            String body = new String(bytes, StandardCharsets.UTF_8);
            McpException unauthorized = Unauthorized.ofRequestAnswer(response);
            JsonRpcError error = jsonRpcErrorIn(body);
            if (unauthorized != null) {
                emit(new TransportEvent.RequestFailed(id, unauthorized));
            } else {
                emit(error == null ? new TransportEvent.RequestFailed(id, new HttpStatusException(status, body))
                        : new TransportEvent.Received(new ErrorResponse(id, error)));
            }
        }

        @Override
        public void failed(AnswerHead response, Throwable cause) {
            exchanges.remove(id, exchange);
            if (response != null) {
                reader.bodyFailed(id, cause, this::silenced);
            } else if (!silenced()) {
                // connect failures mean the message never left; a failure after it left means it may have run
                emit(new TransportEvent.RequestFailed(id, PostFailure.of(id, method, description(), safeUrl(endpoint.url()), cause)));
            }
        }
    }

    private void sendNotification(Notification notification, Map<String, String> extraHeaders, Duration timeout) {
        org.eclipse.jetty.client.Request post = jettyPost(
                postHeaders(notification, notification.method(), notification.params(), extraHeaders),
                codec.encodeBytes(notification));
        if (timeout != null) {
            post.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        org.eclipse.jetty.client.ContentResponse response;
        try {
            response = post.send();
        } catch (InterruptedException e) {
            post.abort(new IOException("interrupted"));
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("interrupted while waiting for " + description());
        } catch (TimeoutException e) {
            throw PostFailure.of(null, notification.method(), description(), safeUrl(endpoint.url()), e);
        } catch (ExecutionException e) {
            throw PostFailure.of(null, notification.method(), description(), safeUrl(endpoint.url()), e.getCause());
        }
        if (response.getStatus() / 100 != 2) {
            String body = response.getContentAsString();
            body = body.length() > ERROR_BODY_LIMIT ? body.substring(0, ERROR_BODY_LIMIT) : body;
            McpException unauthorized = Unauthorized.ofRequestAnswer(response);
            if (unauthorized != null) {
                throw unauthorized;
            }
            JsonRpcError error = jsonRpcErrorIn(body);
            throw error == null ? new HttpStatusException(response.getStatus(), body) : new McpErrorException(error);
        }
    }

    /**
     * On Streamable HTTP, closing a request's response stream is the cancellation signal; no
     * {@code notifications/cancelled} is sent (2026-07-28, basic/patterns/cancellation).
     */
    @Override
    public boolean abandon(RequestId id) {
        Exchange exchange = exchanges.remove(id);
        if (exchange != null) {
            exchange.cancel();
        }
        return true;
    }

    private void cancel(Notification cancelled) {
        RequestId id = RequestId.fromJson(cancelled.params() == null ? null : cancelled.params().get("requestId"));
        if (id != null) {
            abandon(id);
        }
    }

    @Override
    public TransportKind kind() {
        return TransportKind.STREAMABLE_HTTP;
    }

    private PostHeaders postHeaders(JsonRpcMessage message, String method, JsonNode params, Map<String, String> extraHeaders) {
        String version = ModernMeta.protocolVersionOf(message).orElse(null);
        if (version == null && message instanceof Request) {
            throw new IllegalArgumentException(method + " lacks _meta " + MetaKeys.PROTOCOL_VERSION
                    + ": a modern request must carry its protocol version");
        }
        String name = switch (method) {
            case Methods.TOOLS_CALL, Methods.PROMPTS_GET -> Json.text(params, "name");
            case Methods.RESOURCES_READ -> Json.text(params, "uri");
            case Methods.TASKS_GET, Methods.TASKS_UPDATE, Methods.TASKS_CANCEL -> Json.text(params, TasksExtension.TASK_ID);
            default -> null;
        };
        for (String header : extraHeaders.keySet()) {
            if (RESERVED_HEADERS.contains(header.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("header " + header + " is set by the transport itself");
            }
        }
        PostHeaders headers = PostClient.headers(endpoint);
        if (version != null) {
            headers.put("MCP-Protocol-Version", version);
        }
        headers.put("Mcp-Method", method);
        if (name != null) {
            headers.put("Mcp-Name", HeaderValues.encode(name));
        }
        extraHeaders.forEach(headers::add);
        return headers;
    }

    /** A redirect is answered as the HTTP status it is, as the JDK's client (never following) did, and as a direct POST is. */
    private org.eclipse.jetty.client.Request jettyPost(PostHeaders headers, byte[] body) {
        return posts.post(endpoint.url(), headers, body).followRedirects(false);
    }

    private void emit(TransportEvent event) {
        Consumer<TransportEvent> sink = events;
        if (sink == null) {
            LOG.warn("{}: event before start() dropped: {}", description(), event);
            return;
        }
        try {
            sink.accept(event);
        } catch (RuntimeException e) {
            LOG.error("{}: event consumer failed on {}", description(), event, e);
        }
    }

    @Override
    public String description() {
        return "modern " + safeUrl(endpoint.url());
    }

    /**
     * Cancels every open exchange without reporting it: whoever closes the transport knows, and
     * a Closed event would tell a client that just moved to another transport that it is dead.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        exchanges.values().forEach(Exchange::cancel);
        exchanges.clear();
        if (direct != null) {
            direct.close();
        }
        try {
            posts.close();
        } catch (Exception e) {
            LOG.debug("{}: closing its POST connections failed: {}", description(), e.toString());
        }
    }

    /** The JSON-RPC error a failure body carries, or null when it carries none. */
    private JsonRpcError jsonRpcErrorIn(String body) {
        if (body.isBlank()) {
            return null;
        }
        try {
            return codec.decode(body) instanceof ErrorResponse error ? error.error() : null;
        } catch (MalformedMessageException e) {
            return null;
        }
    }

    private static void closeQuietly(InputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (IOException ignored) {
                // closing is how a stream is cancelled; a failure to close changes nothing
            }
        }
    }

    /** The URL without user info or query, which may hold secrets. */
    private static String safeUrl(URI url) {
        return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                + (url.getPath() == null ? "" : url.getPath());
    }
}

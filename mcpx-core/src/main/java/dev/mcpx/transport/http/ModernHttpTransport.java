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
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
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
    /** Headers this transport owns or must never send; neither config nor the client may set them. */
    private static final Set<String> RESERVED_HEADERS = Set.of("mcp-protocol-version", "mcp-method", "mcp-name",
            "mcp-session-id", "last-event-id", "accept", "content-type");

    private final UpstreamEndpoint.Http endpoint;
    private final HttpClient http;
    private final boolean ownsHttp;
    private final JsonRpcCodec codec;
    private final ModernResponseReader reader;
    private final Map<RequestId, Exchange> exchanges = new ConcurrentHashMap<>();
    private volatile Consumer<TransportEvent> events;
    private volatile boolean closed;

    /** One request in flight: its HTTP exchange until the status line, then its response body. */
    private static final class Exchange {
        volatile CompletableFuture<HttpResponse<InputStream>> response;
        volatile InputStream body;
        volatile boolean cancelled;

        void cancel() {
            cancelled = true;
            CompletableFuture<HttpResponse<InputStream>> pending = response;
            if (pending != null) {
                pending.cancel(true);
            }
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
        this(endpoint, defaultClient(endpoint.url()), true, maxMessageBytes, maxEventBytes);
    }

    /**
     * @param http shared client (not closed by this transport)
     * @param maxMessageBytes the largest JSON body or SSE event accepted
     */
    ModernHttpTransport(UpstreamEndpoint.Http endpoint, HttpClient http, int maxMessageBytes) {
        this(endpoint, http, false, maxMessageBytes, maxMessageBytes);
    }

    private ModernHttpTransport(UpstreamEndpoint.Http endpoint, HttpClient http, boolean ownsHttp, int maxMessageBytes,
                                int maxEventBytes) {
        for (String name : endpoint.headers().keySet()) {
            if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("header " + name + " of " + safeUrl(endpoint.url())
                        + " is set by mcpx itself and cannot be configured");
            }
        }
        this.endpoint = endpoint;
        this.http = http;
        this.ownsHttp = ownsHttp;
        this.codec = new JsonRpcCodec(maxMessageBytes);
        this.reader = new ModernResponseReader(codec, maxEventBytes, description(), this::emit);
    }

    private static HttpClient defaultClient(URI url) {
        // h2c upgrade on plain http is rare on servers and only adds a failure mode; https negotiates h2 by ALPN
        HttpClient.Version version = "https".equalsIgnoreCase(url.getScheme())
                ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1;
        return HttpClient.newBuilder()
                .version(version)
                .connectTimeout(Duration.ofSeconds(10))
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
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
            case Request request -> sendRequest(request, outbound.headers());
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
    private void sendRequest(Request request, Map<String, String> extraHeaders) {
        RequestId id = request.id();
        HttpRequest httpRequest = post(request, request.method(), request.params(), extraHeaders, null);
        Exchange exchange = new Exchange();
        exchange.response = http.sendAsync(httpRequest, Unauthorized.noticingNonce(endpoint.authorization(), HttpResponse.BodyHandlers.ofInputStream()));
        exchanges.put(id, exchange);
        Thread.ofVirtual().name("mcpx-modern-response-" + id).start(() -> {
            try {
                receive(id, request.method(), exchange);
            } finally {
                exchanges.remove(id, exchange);
            }
        });
    }

    private void receive(RequestId id, String method, Exchange exchange) {
        HttpResponse<InputStream> response;
        try {
            response = await(exchange, id, method);
        } catch (McpException e) {
            if (!exchange.cancelled && !closed) {
                emit(new TransportEvent.RequestFailed(id, e));
            }
            return;
        }
        exchange.body = response.body();
        if (exchange.cancelled) {
            closeQuietly(exchange.body);
            return;
        }
        int status = response.statusCode();
        if (status / 100 != 2) {
            String body = readAtMost(response.body(), ERROR_BODY_LIMIT);
            JsonRpcError error = jsonRpcErrorIn(body);
            McpException unauthorized = Unauthorized.of(response);
            if (unauthorized != null) {
                emit(new TransportEvent.RequestFailed(id, unauthorized));
            } else {
                emit(error == null ? new TransportEvent.RequestFailed(id, new HttpStatusException(status, body))
                        : new TransportEvent.Received(new ErrorResponse(id, error)));
            }
        } else if (mediaType(response).equals("text/event-stream")) {
            reader.readEventStream(id, exchange.body, () -> exchange.cancelled || closed);
        } else {
            reader.readJsonBody(id, exchange.body, () -> exchange.cancelled || closed);
        }
    }

    private void sendNotification(Notification notification, Map<String, String> extraHeaders, Duration timeout) {
        HttpRequest httpRequest = post(notification, notification.method(), notification.params(), extraHeaders, timeout);
        Exchange exchange = new Exchange();
        exchange.response = http.sendAsync(httpRequest, Unauthorized.noticingNonce(endpoint.authorization(), HttpResponse.BodyHandlers.ofInputStream()));
        HttpResponse<InputStream> response = await(exchange, null, notification.method());
        String body = readAtMost(response.body(), ERROR_BODY_LIMIT);
        if (response.statusCode() / 100 != 2) {
            JsonRpcError error = jsonRpcErrorIn(body);
            McpException unauthorized = Unauthorized.of(response);
            if (unauthorized != null) {
                throw unauthorized;
            }
            throw error == null ? new HttpStatusException(response.statusCode(), body) : new McpErrorException(error);
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

    private HttpRequest post(JsonRpcMessage message, String method, JsonNode params, Map<String, String> extraHeaders,
                             Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint.url())
                .POST(HttpRequest.BodyPublishers.ofString(codec.encode(message), StandardCharsets.UTF_8))
                .header("Content-Type", "application/json")
                .header("Accept", ACCEPT);
        endpoint.headers().forEach(builder::header);
        Unauthorized.authorize(builder, endpoint.authorization(), "POST", endpoint.url());
        String version = ModernMeta.protocolVersionOf(message).orElse(null);
        if (version == null && message instanceof Request) {
            throw new IllegalArgumentException(method + " lacks _meta " + MetaKeys.PROTOCOL_VERSION
                    + ": a modern request must carry its protocol version");
        }
        if (version != null) {
            builder.header("MCP-Protocol-Version", version);
        }
        if (timeout != null) {
            builder.timeout(timeout);
        }
        builder.header("Mcp-Method", method);
        String name = switch (method) {
            case Methods.TOOLS_CALL, Methods.PROMPTS_GET -> Json.text(params, "name");
            case Methods.RESOURCES_READ -> Json.text(params, "uri");
            case Methods.TASKS_GET, Methods.TASKS_UPDATE, Methods.TASKS_CANCEL -> Json.text(params, TasksExtension.TASK_ID);
            default -> null;
        };
        if (name != null) {
            builder.header("Mcp-Name", HeaderValues.encode(name));
        }
        extraHeaders.forEach((header, value) -> {
            if (RESERVED_HEADERS.contains(header.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("header " + header + " is set by the transport itself");
            }
            builder.header(header, value);
        });
        return builder.build();
    }

    /**
     * Waits for the status line. Connect failures mean the message never left; a failure after
     * it left means it may have run, so it gets a stream-lost error ({@link PostFailure}).
     */
    private HttpResponse<InputStream> await(Exchange exchange, RequestId id, String method) {
        try {
            return exchange.response.get();
        } catch (InterruptedException e) {
            exchange.cancel();
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("interrupted while waiting for " + description());
        } catch (CancellationException e) {
            throw new RequestCancelledException("cancelled before " + description() + " answered");
        } catch (ExecutionException e) {
            throw PostFailure.of(id, method, description(), safeUrl(endpoint.url()), e.getCause());
        }
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
        if (ownsHttp) {
            http.shutdownNow();
        }
    }

    private static String mediaType(HttpResponse<?> response) {
        String contentType = response.headers().firstValue("Content-Type").orElse("");
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
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

    private static String readAtMost(InputStream in, int limit) {
        try (in) {
            byte[] bytes = in.readNBytes(limit);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
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

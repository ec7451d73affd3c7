package dev.mcpx.transport.http;

import dev.mcpx.protocol.HeaderValues;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ModernMeta;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.TransportKind;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
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
 * {@code _meta}, {@code Mcp-Method} from its method, {@code Mcp-Name} from {@code params.name}
 * or {@code params.uri}; the client adds {@code Mcp-Param-*} through {@link Outbound#headers()}.
 * It never sends GET, DELETE, {@code Mcp-Session-Id} or {@code Last-Event-ID}: the modern era
 * has no sessions and no resumption, so a response stream that ends without its response is
 * reported at once as {@link StreamLostException} for the client to decide about re-issuing.
 */
public final class ModernHttpTransport implements Transport {

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
    private final int maxEventBytes;
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

    public ModernHttpTransport(UpstreamEndpoint.Http endpoint) {
        this(endpoint, JsonRpcCodec.DEFAULT_MAX_CHARS);
    }

    /** @param maxMessageBytes the largest JSON body or SSE event accepted */
    public ModernHttpTransport(UpstreamEndpoint.Http endpoint, int maxMessageBytes) {
        this(endpoint, defaultClient(endpoint.url()), true, maxMessageBytes);
    }

    /**
     * @param http shared client (not closed by this transport)
     * @param maxMessageBytes the largest JSON body or SSE event accepted
     */
    public ModernHttpTransport(UpstreamEndpoint.Http endpoint, HttpClient http, int maxMessageBytes) {
        this(endpoint, http, false, maxMessageBytes);
    }

    private ModernHttpTransport(UpstreamEndpoint.Http endpoint, HttpClient http, boolean ownsHttp, int maxMessageBytes) {
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
        this.maxEventBytes = maxMessageBytes;
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
            case Request request -> sendRequest(request, outbound.headers(), outbound.timeout());
            case Notification n when Methods.CANCELLED.equals(n.method()) -> cancel(n);
            case Notification notification -> sendNotification(notification, outbound.headers(), outbound.timeout());
            default -> throw new IllegalArgumentException("a client sends requests and notifications only");
        }
    }

    private void sendRequest(Request request, Map<String, String> extraHeaders, Duration timeout) {
        RequestId id = request.id();
        HttpRequest httpRequest = post(request, request.method(), request.params(), extraHeaders, timeout);
        Exchange exchange = new Exchange();
        exchanges.put(id, exchange);
        HttpResponse<InputStream> response;
        try {
            response = await(exchange, httpRequest, request);
        } catch (RuntimeException e) {
            exchanges.remove(id, exchange);
            throw e;
        }
        exchange.body = response.body();
        int status = response.statusCode();
        if (status / 100 != 2) {
            exchanges.remove(id, exchange);
            String body = readAtMost(response.body(), ERROR_BODY_LIMIT);
            JsonRpcError error = jsonRpcErrorIn(body);
            if (error == null) {
                throw new HttpStatusException(status, body);
            }
            emit(new TransportEvent.Received(new ErrorResponse(id, error)));
            return;
        }
        boolean sse = mediaType(response).equals("text/event-stream");
        Thread.ofVirtual().name("mcpx-modern-response-" + id).start(() -> {
            try {
                if (sse) {
                    readEventStream(id, exchange);
                } else {
                    readJsonBody(id, exchange);
                }
            } finally {
                exchanges.remove(id, exchange);
            }
        });
    }

    private void sendNotification(Notification notification, Map<String, String> extraHeaders, Duration timeout) {
        HttpRequest httpRequest = post(notification, notification.method(), notification.params(), extraHeaders, timeout);
        HttpResponse<InputStream> response = await(new Exchange(), httpRequest, null);
        String body = readAtMost(response.body(), ERROR_BODY_LIMIT);
        if (response.statusCode() / 100 != 2) {
            JsonRpcError error = jsonRpcErrorIn(body);
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
     * Sends and waits for the status line. Connect failures mean the request never left;
     * any later failure means it may have run, so a request gets a stream-lost error.
     */
    private HttpResponse<InputStream> await(Exchange exchange, HttpRequest httpRequest, Request request) {
        RequestId id = request == null ? null : request.id();
        exchange.response = http.sendAsync(httpRequest, HttpResponse.BodyHandlers.ofInputStream());
        try {
            return exchange.response.get();
        } catch (InterruptedException e) {
            exchange.cancel();
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("interrupted while waiting for " + description());
        } catch (CancellationException e) {
            throw new RequestCancelledException("cancelled before " + description() + " answered");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException
                    || cause != null && cause.getCause() instanceof ConnectException) {
                throw new UpstreamUnavailableException("cannot connect to " + description() + ": " + cause, cause);
            }
            if (cause instanceof HttpTimeoutException && request != null && httpRequest.timeout().isPresent()) {
                throw new RequestTimeoutException(request.method(), httpRequest.timeout().get());
            }
            if (id != null) {
                throw new StreamLostException(id, "the connection failed before the response status: " + cause, cause);
            }
            throw new UpstreamUnavailableException(description() + " failed: " + cause, cause);
        }
    }

    private void readEventStream(RequestId id, Exchange exchange) {
        String ending = "the response stream ended";
        Throwable cause = null;
        try (InputStream in = exchange.body) {
            SseReader reader = new SseReader(in, maxEventBytes);
            SseEvent event;
            while ((event = reader.next()) != null) {
                if (!"message".equals(event.event()) || event.data().isEmpty()) {
                    continue;
                }
                if (deliver(id, event.data())) {
                    return;
                }
            }
        } catch (SseReader.SseLimitException e) {
            ending = e.getMessage();
            cause = e;
        } catch (IOException e) {
            ending = "the response stream failed: " + e;
            cause = e;
        }
        lost(id, exchange, ending, cause);
    }

    private void readJsonBody(RequestId id, Exchange exchange) {
        String body;
        try (InputStream in = exchange.body) {
            body = readLimited(in, codec.maxChars());
        } catch (IOException e) {
            lost(id, exchange, "the response body failed: " + e, e);
            return;
        }
        if (body.isBlank()) {
            lost(id, exchange, "the response body was empty", null);
        } else if (!deliver(id, body)) {
            lost(id, exchange, "the response body held no response to this request", null);
        }
    }

    /** Delivers one message; true when it is the response to {@code id}. */
    private boolean deliver(RequestId id, String text) {
        JsonRpcMessage message;
        try {
            message = codec.decode(text);
        } catch (MalformedMessageException e) {
            emit(new TransportEvent.Undecodable(excerpt(text), e));
            return false;
        }
        if (message instanceof ErrorResponse error && error.id() == null) {
            // an error without an id on this request's own stream can only be about this request
            emit(new TransportEvent.Received(new ErrorResponse(id, error.error())));
            return true;
        }
        emit(new TransportEvent.Received(message));
        return message instanceof Result r && r.id().equals(id)
                || message instanceof ErrorResponse e && id.equals(e.id());
    }

    private void lost(RequestId id, Exchange exchange, String ending, Throwable cause) {
        if (exchange.cancelled || closed) {
            return;
        }
        LOG.debug("{}: response stream for {} lost: {}", description(), id, ending);
        emit(new TransportEvent.RequestFailed(id, new StreamLostException(id, ending, cause)));
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
        Consumer<TransportEvent> sink = events;
        if (sink != null) {
            sink.accept(new TransportEvent.Closed(new UpstreamUnavailableException(description() + " was closed")));
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

    private static String readLimited(InputStream in, int limit) throws IOException {
        byte[] bytes = in.readNBytes(limit + 1);
        if (bytes.length > limit) {
            throw new IOException("response body exceeds the limit of " + limit + " bytes");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static String excerpt(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
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

package dev.mcpx.transport.http;

import dev.mcpx.protocol.AuthorizationRequiredException;
import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.UpstreamUnavailableException;
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
import java.net.http.HttpTimeoutException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The deprecated HTTP+SSE transport of protocol 2024-11-05: a GET opens an SSE stream whose first
 * {@code endpoint} event names the URL to POST messages to; every answer comes back on that one
 * stream. When the stream ends the transport is dead ({@link TransportEvent.Closed}).
 */
final class HttpSseTransport implements Transport {

    private final UpstreamEndpoint.Http endpoint;
    private final LegacyHttpOptions options;
    private final HttpClient http;
    private final JsonRpcCodec codec;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CompletableFuture<URI> postUrl = new CompletableFuture<>();
    private volatile Consumer<TransportEvent> events = event -> { };
    private volatile InputStream stream;
    private volatile Thread reader;

    HttpSseTransport(UpstreamEndpoint.Http endpoint, LegacyHttpOptions options) {
        this.endpoint = endpoint;
        this.options = options;
        this.codec = new JsonRpcCodec(options.maxMessageBytes());
        this.http = options.newHttpClient(endpoint.url());
    }

    @Override
    public void start(Consumer<TransportEvent> events) {
        this.events = events;
        HttpRequest.Builder get = HttpRequest.newBuilder(endpoint.url()).header("Accept", "text/event-stream").GET();
        endpoint.headers().forEach(get::header);
        Unauthorized.authorize(get, endpoint.authorization(), "GET", endpoint.url());
        long waitMillis = options.connectTimeout().toMillis();
        try {
            HttpResponse<InputStream> response = http.sendAsync(get.build(),
                            Unauthorized.noticingNonce(endpoint.authorization(), HttpResponse.BodyHandlers.ofInputStream()))
                    .get(waitMillis, TimeUnit.MILLISECONDS);
            if (response.statusCode() / 100 != 2 || !ResponseBodies.isEventStream(response)) {
                String body = ResponseBodies.readErrorBody(response.body());
                close();
                AuthorizationRequiredException unauthorized = Unauthorized.of(response);
                throw unauthorized != null ? unauthorized : new HttpStatusException(response.statusCode(), body);
            }
            stream = response.body();
            reader = Thread.ofVirtual().name("mcpx-http-sse").start(this::read);
            postUrl.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new RequestCancelledException("interrupted while connecting to " + description());
        } catch (ExecutionException | TimeoutException e) {
            close();
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new UpstreamUnavailableException(description() + " did not open an HTTP+SSE session: " + cause, cause);
        }
    }

    private void read() {
        String reason = "the SSE stream ended";
        Throwable cause = null;
        try {
            SseReader sse = new SseReader(stream, options.maxEventBytes());
            SseEvent event;
            while ((event = sse.next()) != null) {
                switch (event.event()) {
                    case "endpoint" -> adoptEndpoint(event.data().strip());
                    case "message" -> deliver(event.data());
                    default -> {
                        // other event types carry nothing for MCP
                    }
                }
            }
        } catch (IOException e) {
            reason = "the SSE stream broke";
            cause = e;
        }
        UpstreamUnavailableException failure = new UpstreamUnavailableException(description() + ": " + reason, cause);
        postUrl.completeExceptionally(failure);
        if (closed.compareAndSet(false, true)) {
            events.accept(new TransportEvent.Closed(failure));
            http.shutdownNow();
        }
    }

    /** The POST URL, resolved against the SSE URL; another origin is refused so headers never leak. */
    private void adoptEndpoint(String announced) {
        URI resolved = endpoint.url().resolve(announced);
        URI sse = endpoint.url();
        if (!Objects.equals(resolved.getScheme(), sse.getScheme()) || !Objects.equals(resolved.getHost(), sse.getHost())
                || resolved.getPort() != sse.getPort()) {
            postUrl.completeExceptionally(new UpstreamUnavailableException(
                    "endpoint event names another origin: " + announced));
            return;
        }
        postUrl.complete(resolved);
    }

    private void deliver(String data) {
        if (data.isBlank()) {
            return;
        }
        try {
            events.accept(new TransportEvent.Received(codec.decode(data)));
        } catch (MalformedMessageException e) {
            events.accept(new TransportEvent.Undecodable(data.length() <= 200 ? data : data.substring(0, 200) + "...", e));
        }
    }

    @Override
    public void send(Outbound outbound) {
        if (closed.get() || !postUrl.isDone() || postUrl.isCompletedExceptionally()) {
            throw new UpstreamUnavailableException("transport to " + description() + " is not connected");
        }
        JsonRpcMessage message = outbound.message();
        HttpRequest.Builder post = HttpRequest.newBuilder(postUrl.join())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(codec.encode(message)));
        endpoint.headers().forEach(post::header);
        Unauthorized.authorize(post, endpoint.authorization(), "POST", postUrl.join());
        outbound.headers().forEach(post::header);
        // every answer comes on the stream, so the POST's status is all a send waits for, and an
        // upstream that takes the POST and stalls costs at most the message's timeout
        if (outbound.timeout() != null) {
            post.timeout(outbound.timeout().isZero() ? java.time.Duration.ofMillis(1) : outbound.timeout());
        }
        HttpResponse<InputStream> response;
        try {
            response = http.send(post.build(),
                    Unauthorized.noticingNonce(endpoint.authorization(), HttpResponse.BodyHandlers.ofInputStream()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("interrupted while sending to " + description());
        } catch (HttpTimeoutException e) {
            if (message instanceof Request request) {
                throw new RequestTimeoutException(request.method(), outbound.timeout());
            }
            throw new UpstreamUnavailableException(description() + " did not accept a message within "
                    + outbound.timeout().toMillis() + " ms", e);
        } catch (IOException e) {
            throw new UpstreamUnavailableException(description() + " is unreachable: " + e, e);
        }
        if (response.statusCode() / 100 == 2) {
            ResponseBodies.discard(response.body());
            return;
        }
        String body = ResponseBodies.readErrorBody(response.body());
        ErrorResponse error = ResponseBodies.errorResponse(body);
        if (message instanceof Request request && error != null && request.id().equals(error.id())) {
            events.accept(new TransportEvent.Received(error));
            return;
        }
        AuthorizationRequiredException unauthorized = Unauthorized.of(response);
        throw unauthorized != null ? unauthorized : new HttpStatusException(response.statusCode(), body);
    }

    @Override
    public TransportKind kind() {
        return TransportKind.HTTP_SSE;
    }

    @Override
    public String description() {
        URI url = endpoint.url();
        return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                + (url.getRawPath() == null ? "" : url.getRawPath()) + " (HTTP+SSE)";
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        InputStream in = stream;
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                // the stream is going away either way
            }
        }
        Thread t = reader;
        if (t != null) {
            t.interrupt();
        }
        http.shutdownNow();
    }
}

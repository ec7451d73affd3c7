package dev.mcpx.transport.http;

import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.MessageBytes;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.SessionExpiredException;
import dev.mcpx.protocol.StreamLostException;
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
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streamable HTTP as protocol 2025-03-26 .. 2025-11-25 define it: every message its own POST,
 * answered with one JSON object or an SSE stream; a session id captured from the initialize
 * response and sent on every later request; a GET listen stream; streams resumed with GET and
 * {@code Last-Event-ID}; DELETE on close.
 */
final class LegacyHttpTransport implements Transport {

    private static final Logger LOG = LoggerFactory.getLogger(LegacyHttpTransport.class);
    static final String ACCEPT_BOTH = "application/json, text/event-stream";
    private static final java.time.Duration ACKNOWLEDGE_TIMEOUT = java.time.Duration.ofSeconds(10);

    private final UpstreamEndpoint.Http endpoint;
    private final LegacyHttpOptions options;
    private final HttpClient http;
    private final JsonRpcCodec codec;
    private final AtomicReference<Session> session = new AtomicReference<>(Session.NONE);
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The client of request POSTs; notifications, responses, GET streams and DELETE go through {@link #http}. */
    private final PostClient requests;
    /** Request POSTs to plain http that their sender writes and reads itself; null for https. */
    private final DirectPosts direct;
    private final Map<RequestId, Answer> inFlight = new ConcurrentHashMap<>();
    /**
     * Every request POST until its reader is done with it, answer body included: closing Jetty's
     * body stream does not end the exchange, so abandon aborts it here and the connection goes.
     */
    private final Map<RequestId, Answer> posts = new ConcurrentHashMap<>();
    private final Set<ResponseStream> responseStreams = ConcurrentHashMap.newKeySet();
    /** Notification and response POSTs awaiting their 202: close cancels them (the client may be shared). */
    private final Set<CompletableFuture<?>> acknowledgements = ConcurrentHashMap.newKeySet();
    private volatile String protocolVersion;
    private volatile Consumer<TransportEvent> events = event -> { };
    private ListenStream listenStream;

    LegacyHttpTransport(UpstreamEndpoint.Http endpoint, LegacyHttpOptions options) {
        this.endpoint = endpoint;
        this.options = options;
        this.codec = new JsonRpcCodec(options.maxMessageBytes());
        this.http = options.streamClient(endpoint.url());
        this.requests = new PostClient(options.connectTimeout());
        this.direct = DirectPosts.serves(endpoint.url()) ? new DirectPosts(endpoint.url(), options.connectTimeout(),
                endpoint.authorization(), options.maxMessageBytes(), ResponseBodies.ERROR_BODY_LIMIT) : null;
        // A configured header the JDK refuses (Host, Connection, ...) fails here, not on the first call.
        request(endpoint.url(), null, false, "POST").build();
    }

    @Override
    public void start(Consumer<TransportEvent> events) {
        this.events = events;
    }

    @Override
    public void send(Outbound outbound) {
        if (closed.get()) {
            throw new UpstreamUnavailableException("transport to " + description() + " is closed");
        }
        JsonRpcMessage message = outbound.message();
        boolean initialize = message instanceof Request r && Methods.INITIALIZE.equals(r.method());
        // A new session starts with an initialize that carries no session id (spec, session rule 4).
        Session state = session.get();
        String sentWith = initialize ? null : state.current();
        if (!initialize && sentWith == null && state.expired() != null) {
            // Sent now it would carry no session at all; the client re-initializes, then retries it.
            throw new SessionExpiredException(state.expired(), 404,
                    "not sent: the session expired and no initialize has replaced it yet");
        }
        if (message instanceof Request request) {
            // A JSON answer's status line comes only with the result, however long the tool runs:
            // a request's send returns at once so the client's timeout holds; its outcome is an event
            // (or, sent directly, is read by the sender's collect within that timeout).
            PostHeaders headers = postHeaders(sentWith, !initialize, outbound.headers());
            byte[] bytes = codec.encodeBytes(message);
            Answer answer = new Answer(request, initialize, sentWith);
            if (direct != null && outbound.senderCollects() && direct.takes(headers, bytes)) {
                RequestId id = request.id();
                answer.abort = cause -> direct.abandon(id);
                inFlight.put(id, answer);
                posts.put(id, answer);
                direct.send(id, headers, bytes, answer, () -> sendThroughJetty(answer, headers, bytes));
            } else {
                sendThroughJetty(answer, headers, bytes);
            }
            return;
        }
        String body = codec.encode(message);
        HttpRequest.Builder builder = request(endpoint.url(), sentWith, !initialize, "POST")
                .header("Accept", ACCEPT_BOTH)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        outbound.headers().forEach(builder::header);
        // notifications and responses wait for their 202, but never longer than a stalled upstream deserves
        builder.timeout(outbound.timeout() != null ? outbound.timeout() : ACKNOWLEDGE_TIMEOUT);
        HttpResponse<InputStream> response = exchange(builder.build(), message);
        int status = response.statusCode();
        if (status / 100 != 2) {
            throw refusal(sentWith, status, Unauthorized.of(response), ResponseBodies.readErrorBody(response.body()));
        }
        ResponseBodies.discard(response.body());
    }

    /** A request's POST through Jetty's client (the first one, or again after a redirect on the direct way). */
    private void sendThroughJetty(Answer answer, PostHeaders headers, byte[] body) {
        org.eclipse.jetty.client.Request post = requests.post(endpoint.url(), headers, body);
        answer.abort = post::abort;
        RequestId id = answer.request.id();
        inFlight.put(id, answer);
        posts.put(id, answer);
        post.send(new PostAnswer(endpoint.authorization(), options.maxMessageBytes(), ResponseBodies.ERROR_BODY_LIMIT, answer));
    }

    /**
     * What becomes of a request's answer, on Jetty's threads or the collecting sender's:
     * delivered, or failed with the typed reason.
     */
    private final class Answer implements PostAnswer.Receiver {
        private final Request request;
        private final boolean initialize;
        private final String sentWith;
        /** Ends the exchange on whichever client carries it. */
        volatile Consumer<IOException> abort = cause -> { };

        Answer(Request request, boolean initialize, String sentWith) {
            this.request = request;
            this.initialize = initialize;
            this.sentWith = sentWith;
        }

        @Override
        public void eventStream(AnswerHead response, InputStream body) {
            RequestId id = request.id();
            Answer post = this;
            if (initialize) {
                adoptSession(response.header("Mcp-Session-Id"));
            }
            // the exchange stays in flight until its body is registered where abandon() finds it: an
            // abandon in between would otherwise find neither and leave a stalled body read forever
            ResponseStream stream = new ResponseStream(LegacyHttpTransport.this, id, body, sentWith);
            responseStreams.add(stream);
            if (inFlight.remove(id) == null) {
                responseStreams.remove(stream);
                posts.remove(id, post);
                ResponseBodies.close(body);
                return;
            }
            Thread.ofVirtual().name("mcpx-legacy-stream-" + id).start(() -> {
                try {
                    stream.run();
                } finally {
                    posts.remove(id, post);
                }
            });
        }

        @Override
        public void answered(AnswerHead response, byte[] body) {
            RequestId id = request.id();
            posts.remove(id, this);
            // abandon() removed it first when it aborted the exchange: nobody waits for an answer
            if (!inFlight.remove(id, this)) {
                return;
            }
            int status = response.status();
            if (status / 100 != 2) {
                String text = new String(body, StandardCharsets.UTF_8);
                McpException refusal = refusal(sentWith, status, Unauthorized.ofRequestAnswer(response), text);
                ErrorResponse error = ResponseBodies.errorResponse(text);
                if (refusal instanceof HttpStatusException && error != null && id.equals(error.id())) {
                    emit(new TransportEvent.Received(error));
                } else {
                    LegacyHttpTransport.this.failed(id, refusal);
                }
                return;
            }
            if (initialize) {
                adoptSession(response.header("Mcp-Session-Id"));
            }
            if (MessageBytes.isBlank(body)) {
                LegacyHttpTransport.this.failed(id, new StreamLostException(id, "HTTP " + status + " without a response body", null));
            } else if (!deliver(body, id)) {
                LegacyHttpTransport.this.failed(id, new StreamLostException(id,
                        "the JSON body of HTTP " + status + " was not the response to the request", null));
            }
        }

        @Override
        public void failed(AnswerHead response, Throwable cause) {
            RequestId id = request.id();
            posts.remove(id, this);
            if (!inFlight.remove(id, this)) {
                return;
            }
            if (response == null) {
                LegacyHttpTransport.this.failed(id, PostFailure.of(id, request.method(), description(), description(), cause));
            } else {
                LegacyHttpTransport.this.failed(id, new StreamLostException(id, cause.getMessage(), cause));
            }
        }
    }

    /**
     * What a non-2xx answer means: a session the server no longer knows is
     * {@link SessionExpiredException}; one about its credentials is
     * {@link dev.mcpx.protocol.AuthorizationRequiredException}; anything else is
     * {@link HttpStatusException} (a request whose refusal carries a JSON-RPC error naming it gets
     * that error as its answer instead).
     */
    private static McpException refusal(String sentWith, int status, McpException unauthorized, String body) {
        if (unauthorized != null) {
            return unauthorized;
        }
        if (sentWith != null && (status == 404 || (status == 400 && ResponseBodies.rejectsSession(body)))) {
            return new SessionExpiredException(sentWith, status, body);
        }
        return new HttpStatusException(status, body);
    }

    private synchronized void adoptSession(String issued) {
        String previous = session.getAndSet(new Session(issued, null)).current();
        if (previous != null && !previous.equals(issued)) {
            stopListening();
        }
    }

    @Override
    public synchronized void handshakeCompleted(ProtocolVersion version) {
        protocolVersion = version.wire();
        stopListening();
    }

    @Override
    public void sessionReady(java.time.Duration within) {
        ListenStream opened;
        synchronized (this) {
            stopListening();
            if (closed.get()) {
                return;
            }
            opened = new ListenStream(this, session.get().current());
            listenStream = opened;
            Thread.ofVirtual().name("mcpx-legacy-listen").start(opened);
        }
        java.time.Duration limit = within.compareTo(options.connectTimeout()) < 0 ? within : options.connectTimeout();
        if (!opened.awaitFirstAnswer(limit)) {
            LOG.debug("{}: the listen stream got no answer within {}; going on without waiting", description(), limit);
        }
    }

    @Override
    public Optional<String> sessionId() {
        return Optional.ofNullable(session.get().current());
    }

    /**
     * Legacy streams do not mean cancellation when they close (spec: disconnection is not
     * cancellation), so the client still sends {@code notifications/cancelled}; the transport
     * only stops reading the abandoned request's stream.
     */
    @Override
    public boolean abandon(RequestId id) {
        inFlight.remove(id);
        Answer exchange = posts.remove(id);
        if (exchange != null) {
            // an IOException: what reads the body expects; an unchecked one escaped a reader thread uncaught
            exchange.abort.accept(new IOException("abandoned"));
        }
        responseStreams.stream().filter(stream -> stream.answers(id)).forEach(ResponseStream::stop);
        return false;
    }

    @Override
    public synchronized void expireSession(String expired) {
        Session state = session.get();
        if (expired != null && expired.equals(state.current())
                && session.compareAndSet(state, new Session(null, expired))) {
            LOG.debug("{}: session {} expired", description(), SessionExpiredException.redact(expired));
            stopListening();
        }
    }

    private synchronized void stopListening() {
        if (listenStream != null) {
            listenStream.stop();
            listenStream = null;
        }
    }

    @Override
    public TransportKind kind() {
        return TransportKind.STREAMABLE_HTTP;
    }

    @Override
    public String description() {
        URI url = endpoint.url();
        return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                + (url.getRawPath() == null ? "" : url.getRawPath());
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stopListening();
        posts.values().forEach(exchange -> exchange.abort.accept(new IOException("transport closed")));
        if (direct != null) {
            direct.close();
        }
        responseStreams.forEach(ResponseStream::stop);
        String current = session.getAndSet(Session.NONE).current();
        if (current != null) {
            deleteSession(current);
        }
        acknowledgements.forEach(pending -> pending.cancel(true));
        if (!LegacyHttpOptions.sharesStreamClient(endpoint.url())) {
            http.shutdownNow();
        }
        try {
            requests.close();
        } catch (Exception e) {
            LOG.debug("{}: closing its POST connections failed: {}", description(), e.toString());
        }
    }

    /** Ends the session upstream; bounded, and any answer (405 included) is fine. */
    private void deleteSession(String session) {
        HttpRequest delete = request(endpoint.url(), session, true, "DELETE").DELETE()
                .timeout(options.closeTimeout()).build();
        try {
            http.sendAsync(delete, Unauthorized.noticingNonce(endpoint.authorization(), HttpResponse.BodyHandlers.discarding()))
                    .get(options.closeTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("{}: DELETE of session {} failed: {}", description(), SessionExpiredException.redact(session), e.toString());
        }
    }


    HttpClient streamClient() {
        return http;
    }

    LegacyHttpOptions options() {
        return options;
    }

    boolean closed() {
        return closed.get();
    }

    String currentSessionId() {
        return session.get().current();
    }

    /** A request to {@code url} with the configured headers, its authorization, the session and the protocol version. */
    HttpRequest.Builder request(URI url, String session, boolean withVersion, String httpMethod) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url);
        endpoint.headers().forEach(builder::header);
        Unauthorized.authorize(builder, endpoint.authorization(), httpMethod, url);
        if (session != null) {
            builder.header("Mcp-Session-Id", session);
        }
        String version = protocolVersion;
        if (withVersion && version != null) {
            builder.header("MCP-Protocol-Version", version);
        }
        return builder;
    }

    /** A request's POST headers, the same {@link #request} gives the JDK's. */
    private PostHeaders postHeaders(String session, boolean withVersion, Map<String, String> extra) {
        PostHeaders headers = PostClient.headers(endpoint);
        if (session != null) {
            headers.put("Mcp-Session-Id", session);
        }
        String version = protocolVersion;
        if (withVersion && version != null) {
            headers.put("MCP-Protocol-Version", version);
        }
        extra.forEach(headers::add);
        return headers;
    }

    @Override
    public void collect(RequestId id, java.time.Duration within) {
        if (direct != null) {
            direct.collect(id, within);
        }
    }

    /** A GET for an SSE stream: the listen stream, or a resume when {@code lastEventId} is given. */
    CompletableFuture<HttpResponse<InputStream>> openEventStream(String session, String lastEventId, StreamSlot slot) {
        HttpRequest.Builder builder = request(endpoint.url(), session, true, "GET").header("Accept", "text/event-stream").GET();
        if (lastEventId != null) {
            builder.header("Last-Event-ID", lastEventId);
        }
        return http.sendAsync(builder.build(), Unauthorized.noticingNonce(endpoint.authorization(), slot.bodyHandler()));
    }

    private HttpResponse<InputStream> exchange(HttpRequest request, JsonRpcMessage message) {
        CompletableFuture<HttpResponse<InputStream>> pending = http.sendAsync(request,
                Unauthorized.noticingNonce(endpoint.authorization(), HttpResponse.BodyHandlers.ofInputStream()));
        acknowledgements.add(pending);
        try {
            if (closed.get()) {
                pending.cancel(true);
            }
            return pending.get();
        } catch (InterruptedException e) {
            pending.cancel(true);
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("interrupted while sending to " + description());
        } catch (ExecutionException | CancellationException e) {
            Throwable failure = e instanceof ExecutionException ? e.getCause() : new IOException("transport closed");
            String what = switch (message) {
                case JsonRpcMessage.Notification n -> n.method();
                case Result r -> "response to " + r.id();
                case ErrorResponse r -> "error response to " + r.id();
                case Request r -> r.method();
            };
            throw PostFailure.of(null, what, description(), description(), failure);
        } finally {
            acknowledgements.remove(pending);
        }
    }

    /**
     * Decodes one message and hands it to the client. Returns whether it was the response to
     * {@code awaited}, which ends that request's stream.
     */
    boolean deliver(String data, RequestId awaited) {
        JsonRpcMessage message;
        try {
            message = codec.decode(data);
        } catch (MalformedMessageException e) {
            emit(new TransportEvent.Undecodable(excerpt(data), e));
            return false;
        }
        return received(message, awaited);
    }

    /** {@link #deliver(String, RequestId)} for a JSON body, parsed from its bytes. */
    private boolean deliver(byte[] body, RequestId awaited) {
        JsonRpcMessage message;
        try {
            message = codec.decode(body, 0, body.length);
        } catch (MalformedMessageException e) {
            emit(new TransportEvent.Undecodable(excerpt(new String(body, StandardCharsets.UTF_8)), e));
            return false;
        }
        return received(message, awaited);
    }

    private boolean received(JsonRpcMessage message, RequestId awaited) {
        emit(new TransportEvent.Received(message, awaited));
        return awaited != null && switch (message) {
            case Result result -> awaited.equals(result.id());
            case ErrorResponse error -> awaited.equals(error.id());
            default -> false;
        };
    }

    void failed(RequestId id, McpException error) {
        emit(new TransportEvent.RequestFailed(id, error));
    }

    void sessionLost(String lost) {
        if (lost != null && lost.equals(session.get().current())) {
            emit(new TransportEvent.SessionExpired(lost));
        }
    }

    void finished(ResponseStream stream) {
        responseStreams.remove(stream);
    }

    private void emit(TransportEvent event) {
        if (!closed.get()) {
            events.accept(event);
        }
    }

    /**
     * The session requests carry, and the one {@link #expireSession} dropped while no initialize
     * has replaced it yet (a request in that gap must not go out without a session).
     */
    private record Session(String current, String expired) {
        static final Session NONE = new Session(null, null);
    }

    private static String excerpt(String data) {
        return data.length() <= 200 ? data : data.substring(0, 200) + "...";
    }
}

package dev.mcpx.front.http;

import dev.mcpx.client.Cancellation;
import dev.mcpx.front.HostChannel;
import dev.mcpx.front.HostRequests;
import dev.mcpx.front.HostSession;
import dev.mcpx.front.Listen;
import dev.mcpx.front.ServerIdentity;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.MessageBytes;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /mcp} for both eras on one endpoint. A POST is legacy when it is an {@code initialize}
 * or carries a session id, modern when its version (header or {@code _meta}) is 2026-07-28.
 * Legacy hosts get sessions, a GET listen stream and DELETE; modern hosts are served
 * statelessly with header validation and {@code subscriptions/listen}. Routed calls answer with
 * JSON when quick, else on an SSE stream, so progress can flow; a modern host that goes away
 * cancels its call, a legacy host's stream is resumable ({@link ListenAndResume}).
 */
final class McpEndpoint {

    static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final Logger LOG = LoggerFactory.getLogger(McpEndpoint.class);

    private final HostRequests requests;
    private final LegacySessions sessions;
    private final ModernListeners listeners;
    private final Duration keepAlive;
    private final SseSettings sse;
    private final ListenAndResume listenAndResume;
    private final JsonRpcCodec codec = new JsonRpcCodec();
    /** Largest POST body, the operator's {@code maxMessageBytes}. */
    private final int maxBody;
    private final HostMessageRelay relay;

    /** {@code relay}: where a host's message about a call this replica does not run goes, and comes from. */
    McpEndpoint(HostRequests requests, LegacySessions sessions, ModernListeners listeners, Duration keepAlive,
                SseSettings sse, ReplayCounters counters, int maxBody, HostMessageRelay relay, SharedStreams shared) {
        this.requests = requests;
        this.sessions = sessions;
        this.listeners = listeners;
        this.keepAlive = keepAlive;
        this.sse = sse;
        this.listenAndResume = new ListenAndResume(sse, counters, keepAlive, shared);
        this.maxBody = maxBody;
        this.relay = relay;
        sessions.onTakenUp(McpEndpoint::takeUp);
        relay.onForwarded(this::forwarded);
    }

    private McpEndpoint(McpEndpoint shared, HostRequests requests) {
        this.requests = requests;
        this.sessions = shared.sessions;
        this.listeners = shared.listeners;
        this.keepAlive = shared.keepAlive;
        this.sse = shared.sse;
        this.listenAndResume = shared.listenAndResume;
        this.maxBody = shared.maxBody;
        this.relay = shared.relay;
    }

    /** This endpoint for the hosts of profile {@code name} ({@code /mcp/<name>}), or null when there is no such profile. */
    McpEndpoint forProfile(String name) {
        if (!requests.hasProfile(name)) {
            return null;
        }
        return name == null ? this : new McpEndpoint(this, requests.forProfile(name));
    }

    /** A session lives on the path that created it: another profile's hosts cannot use it. */
    private LegacySession session(String sessionId) {
        LegacySession session = sessions.get(sessionId);
        return session != null && Objects.equals(session.profile, requests.profileName()) ? session : null;
    }

    void post(org.eclipse.jetty.server.Request request, Response response, Callback callback) throws Exception {
        byte[] body = request.getLength() > maxBody ? null : boundedBody(request, maxBody);
        if (body == null) {
            requests.refused("maxMessageBytes");
            Replies.error(response, callback, 413, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                    "body too large: the limit is " + maxBody + " bytes (maxMessageBytes)"));
            return;
        }
        JsonRpcMessage decoded;
        try {
            decoded = codec.decode(body, 0, body.length);
        } catch (MalformedMessageException e) {
            Replies.error(response, callback, 400, e.id(), e.toError());
            return;
        }
        HttpFields headers = request.getHeaders();
        JsonRpcMessage hostMessage = TraceHeaders.intoMeta(decoded, headers);
        // the body is the message's text unless trace headers went into its _meta
        byte[] hostText = hostMessage == decoded ? body : null;
        String sessionId = headers.get(SESSION_HEADER);
        String version = headers.get("MCP-Protocol-Version");
        boolean modern = ProtocolVersion.LATEST_MODERN.wire().equals(version)
                || hostMessage instanceof Request r && HostRequests.eraOf(r) == Era.MODERN;
        try {
            post(hostMessage, hostText, sessionId, version, modern, request, response, callback);
        } catch (SessionStoreException e) {
            storeUnreachable(e, idOf(hostMessage), response, callback);
        }
    }

    private void post(JsonRpcMessage hostMessage, byte[] hostText, String sessionId, String version, boolean modern,
                      org.eclipse.jetty.server.Request request, Response response, Callback callback) throws Exception {
        if (hostMessage instanceof Request hostRequest && Methods.INITIALIZE.equals(hostRequest.method()) && !modern) {
            initialize(hostRequest, response, callback);
        } else if (sessionId != null) {
            LegacySession session = session(sessionId);
            if (session == null) {
                Replies.error(response, callback, 404, idOf(hostMessage),
                        JsonRpcError.of(ErrorCodes.INVALID_REQUEST, "Session not found: " + sessionId));
            } else {
                legacy(session, hostMessage, hostText, version, response, callback);
            }
        } else if (modern) {
            modern(hostMessage, request, response, callback);
        } else if (version != null && ProtocolVersion.fromWire(version).isEmpty()) {
            McpErrorException refused = HostRequests.unsupportedVersion(version);
            Replies.error(response, callback, 400, idOf(hostMessage), refused.error());
        } else {
            Replies.error(response, callback, 400, idOf(hostMessage), JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                    "Bad Request: Mcp-Session-Id header is required (send initialize first), or send a "
                            + "2026-07-28 request with its _meta"));
        }
    }

    /** The cluster's session store did not answer: this request fails, the session and mcpx go on. */
    private static void storeUnreachable(SessionStoreException e, RequestId id, Response response, Callback callback) {
        LOG.warn("legacy sessions: {}", e.getMessage());
        Replies.error(response, callback, 503, id, JsonRpcError.of(ErrorCodes.INTERNAL_ERROR,
                "mcpx cannot reach its session store right now, retry shortly: " + e.getMessage()));
    }

    /** The body, or null past {@code limit} bytes: a chunked body has no length to check up front. */
    private static byte[] boundedBody(org.eclipse.jetty.server.Request request, int limit) throws IOException {
        try (InputStream in = Content.Source.asInputStream(request)) {
            byte[] bytes = MessageBytes.readAtMost(in, limit + 1, request.getLength());
            return bytes.length > limit ? null : bytes;
        }
    }

    private void initialize(Request hostRequest, Response response, Callback callback) {
        ProtocolVersion version = ServerIdentity.negotiate(Json.text(hostRequest.params(), "protocolVersion"));
        LegacySession session = sessions.create(version, requests.profileName(),
                Json.objectAt(hostRequest.params(), "capabilities"));
        JsonRpcMessage hostResult = session.host.take(hostRequest, Era.LEGACY, new Cancellation()).answer(HostChannel.NONE);
        if (!(hostResult instanceof Result)) {
            sessions.remove(session.id);
            reply(Era.LEGACY, hostResult, response, callback);
            return;
        }
        Replies.json(response, callback, 200, hostResult, SESSION_HEADER, session.id);
    }

    /** A session another replica created: asks for roots once it listens here, subscribes to what its host did. */
    private static void takeUp(LegacySession session, SharedSession shared) {
        if (session.listen != null) {
            // a GET of the host got here first
            session.host.reachable();
        }
        for (String uri : shared.subscriptions()) {
            ObjectNode params = Json.object().put("uri", uri);
            session.host.follow(new Request(RequestId.of("mcpx-take-up"), Methods.RESOURCES_SUBSCRIBE, params));
        }
    }

    /** {@code hostText}: the host's message as UTF-8 JSON, or null when only {@code hostMessage} has it all. */
    private void legacy(LegacySession session, JsonRpcMessage hostMessage, byte[] hostText, String version,
                        Response response, Callback callback) {
        if (version != null && ProtocolVersion.fromWire(version).filter(v -> v.era() == Era.LEGACY).isEmpty()) {
            Replies.error(response, callback, 400, idOf(hostMessage), JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                    "Bad Request: unsupported MCP-Protocol-Version " + version + " for this session (" + session.version + ")"));
            return;
        }
        switch (hostMessage) {
            case Notification notification -> {
                if (!session.host.notified(notification)) {
                    // the call it cancels may run on another replica
                    relay.forward(session.id, codec.encode(notification));
                }
                Replies.accepted(response, callback);
            }
            case Request hostRequest when HostRequests.routed(hostRequest.method()) ->
                    streamCall(hostRequest, hostText, Era.LEGACY, session.host, session, response, callback);
            case Request hostRequest -> {
                JsonRpcMessage answer = session.host.take(hostRequest, Era.LEGACY, new Cancellation()).answer(HostChannel.NONE);
                if (HostRequests.SUBSCRIPTION_METHODS.contains(hostRequest.method()) && answer instanceof Result) {
                    // every replica's copy subscribes too: the host's listen stream may be on any of them
                    sessions.subscription(session, Json.text(hostRequest.params(), "uri"),
                            Methods.RESOURCES_SUBSCRIBE.equals(hostRequest.method()));
                    relay.forward(session.id, codec.encode(hostRequest));
                }
                reply(Era.LEGACY, answer, response, callback);
            }
            default -> {
                // the host's answer to a sampling/elicitation/roots request mcpx passed to it
                if (!session.host.answered(hostMessage)) {
                    relay.forward(session.id, codec.encode(hostMessage));
                }
                Replies.accepted(response, callback);
            }
        }
    }

    /** A whole answer; a request the host cancelled meanwhile gets none (MCP cancellation rules), only the POST's 202. */
    private static void reply(Era era, JsonRpcMessage answer, Response response, Callback callback) {
        if (answer == null) {
            Replies.accepted(response, callback);
        } else {
            Replies.json(response, callback, status(era, answer), answer);
        }
    }

    /** Another replica got a host's message about a call it does not run: if it runs here, it gets it. */
    private void forwarded(String sessionId, String text) {
        LegacySession session = sessions.here(sessionId);
        if (session == null) {
            return;
        }
        try {
            switch (codec.decode(text)) {
                case Notification notification when Methods.CANCELLED.equals(notification.method()) ->
                        session.host.notified(notification);
                case Notification other -> LOG.debug("legacy session {}: ignored a forwarded {}", session.auditName, other.method());
                case Request request when HostRequests.SUBSCRIPTION_METHODS.contains(request.method()) ->
                        session.host.follow(request);
                case Request request -> LOG.debug("legacy session {}: ignored a forwarded {}", session.auditName, request.method());
                case JsonRpcMessage answer -> session.host.answered(answer);
            }
        } catch (MalformedMessageException e) {
            LOG.warn("legacy session {}: a forwarded message did not decode: {}", session.auditName, e.getMessage());
        }
    }

    private void modern(JsonRpcMessage hostMessage, org.eclipse.jetty.server.Request request, Response response,
                        Callback callback) throws InterruptedException {
        if (!(hostMessage instanceof Request hostRequest)) {
            Replies.accepted(response, callback);
            return;
        }
        try {
            ModernHeaders.validate(hostRequest, request.getHeaders(), requests::toolInputSchema);
        } catch (McpErrorException e) {
            Replies.error(response, callback, 400, hostRequest.id(), e.error());
            return;
        }
        HostSession alone = HostSession.stateless(requests);
        if (Methods.SUBSCRIPTIONS_LISTEN.equals(hostRequest.method())) {
            listen(hostRequest, response, callback);
        } else if (HostRequests.routed(hostRequest.method())
                && !HostRequests.REMOVED_IN_MODERN.contains(hostRequest.method())) {
            streamCall(hostRequest, null, Era.MODERN, alone, null, response, callback);
        } else {
            reply(Era.MODERN, alone.take(hostRequest, Era.MODERN, new Cancellation()).answer(HostChannel.NONE),
                    response, callback);
        }
    }

    /** 2026-07-28 gives some errors their own HTTP status; legacy answers every JSON-RPC error with 200. */
    private static int status(Era era, JsonRpcMessage hostResult) {
        if (era != Era.MODERN || !(hostResult instanceof ErrorResponse error)) {
            return 200;
        }
        return switch (error.error().code()) {
            case ErrorCodes.METHOD_NOT_FOUND -> 404;
            case ErrorCodes.HEADER_MISMATCH, ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
                 ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY -> 400;
            default -> 200;
        };
    }

    /**
     * A routed call answered on its own stream: progress, log lines and requests to the host first, then the
     * one answer. A modern host that goes away cancels its call; a legacy one does not (2025-11-25:
     * disconnection is not cancellation), it resumes with GET and Last-Event-ID or cancels explicitly.
     */
    private void streamCall(Request hostRequest, byte[] hostText, Era era, HostSession host, LegacySession session,
                            Response response, Callback callback) {
        Cancellation cancellation = new Cancellation();
        SseStream stream = session == null
                ? SseStream.deferred(response, keepAlive, () -> cancellation.cancel("host disconnected"))
                : SseStream.resumableCall(session.replay, sse, response, keepAlive);
        if (session != null) {
            // the host's own text when there is one: a call answered as JSON (most) never needs it
            stream.running(() -> hostText != null ? new String(hostText, StandardCharsets.UTF_8) : codec.encode(hostRequest));
        }
        JsonRpcMessage hostResult = host.take(hostRequest, era, cancellation).answer(stream::send);
        // a call the host cancelled gets no response (MCP cancellation rules)
        if (hostResult != null) {
            stream.answer(hostResult, status(era, hostResult));
        }
        end(stream, callback);
    }

    /** A modern host's {@code subscriptions/listen}: acknowledged, then list changes and resource updates until it hangs up. */
    private void listen(Request hostRequest, Response response, Callback callback) throws InterruptedException {
        SseStream stream = SseStream.open(response, keepAlive, () -> { });
        ModernListeners.Listener listener = new ModernListeners.Listener(new Listen(requests, hostRequest, stream::send), stream);
        try {
            listeners.add(listener);
            listener.listen().open();
            stream.awaitEnd();
        } finally {
            listeners.remove(listener);
            listener.listen().close();
        }
        end(stream, callback);
    }

    void get(org.eclipse.jetty.server.Request request, Response response, Callback callback) throws InterruptedException {
        String sessionId = request.getHeaders().get(SESSION_HEADER);
        if (sessionId == null) {
            Replies.text(response, callback, 405, "text/plain", "GET needs an Mcp-Session-Id (legacy listen stream)\n", "Allow", "POST");
            return;
        }
        LegacySession session;
        try {
            session = session(sessionId);
        } catch (SessionStoreException e) {
            storeUnreachable(e, null, response, callback);
            return;
        }
        if (session == null) {
            Replies.error(response, callback, 404, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST, "Session not found: " + sessionId));
            return;
        }
        listenAndResume.serve(session, requests, request.getHeaders().get("Last-Event-ID"), response, callback);
    }

    void delete(org.eclipse.jetty.server.Request request, Response response, Callback callback) {
        String sessionId = request.getHeaders().get(SESSION_HEADER);
        if (sessionId == null) {
            Replies.text(response, callback, 405, "text/plain", "DELETE needs an Mcp-Session-Id\n", "Allow", "POST");
            return;
        }
        LegacySession session;
        try {
            session = session(sessionId) == null ? null : sessions.remove(sessionId);
        } catch (SessionStoreException e) {
            storeUnreachable(e, null, response, callback);
            return;
        }
        if (session == null) {
            Replies.error(response, callback, 404, null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST, "Session not found: " + sessionId));
            return;
        }
        // sessions.remove ended it: its calls are cancelled, its streams finished
        response.setStatus(200);
        callback.succeeded();
    }

    private static void end(SseStream stream, Callback callback) {
        stream.finish();
        if (stream.isBroken()) {
            callback.failed(new IOException("host went away"));
        } else {
            callback.succeeded();
        }
    }

    private static RequestId idOf(JsonRpcMessage message) {
        return message instanceof Request request ? request.id() : null;
    }
}

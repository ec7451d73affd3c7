package dev.mcpx.testkit.legacy;

import dev.mcpx.testkit.chaos.SilentCloses;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Serves {@code /mcp} the way a 2025-11-25 Streamable HTTP server with sessions does. */
final class StreamableHandler extends Handler.Abstract {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final long ASK_TIMEOUT_MILLIS = 10_000;

    private final LegacyHttpUpstream upstream;

    StreamableHandler(LegacyHttpUpstream upstream) {
        this.upstream = upstream;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        SilentCloses.arrived(request);
        if (!"/mcp".equals(Request.getPathInContext(request))) {
            plain(response, callback, 404, "not found");
            return true;
        }
        switch (request.getMethod()) {
            case "POST" -> post(request, response, callback);
            case "GET" -> get(request, response, callback);
            case "DELETE" -> delete(request, response, callback);
            default -> plain(response, callback, 405, "method not allowed");
        }
        return true;
    }

    private void post(Request request, Response response, Callback callback) throws IOException {
        String body;
        try {
            body = StandardCharsets.UTF_8.newDecoder()
                    .decode(Content.Source.asByteBuffer(request)).toString();
        } catch (CharacterCodingException e) {
            record(request, null, null, null);
            rpcError(response, callback, 400, -32700, "Parse error: the body is not UTF-8", null);
            return;
        }
        JsonNode message;
        try {
            message = JSON.readTree(body);
        } catch (JacksonException e) {
            record(request, null, null, body);
            rpcError(response, callback, 400, -32700, "Parse error", null);
            return;
        }
        String method = message.path("method").asString(null);
        JsonNode id = message.get("id");
        record(request, method, id == null || id.isNull() ? null : id.toString(), body);
        String dropName = "tools/call".equals(method) ? message.path("params").path("name").asString(null) : method;
        if (upstream.silentCloses().take(dropName, SilentCloses.When.BEFORE_RUNNING)) {
            upstream.silentCloses().close(request, callback);
            return;
        }
        String accept = request.getHeaders().get("Accept");
        if (accept == null || !accept.contains("application/json") || !accept.contains("text/event-stream")) {
            rpcError(response, callback, 406, -32000,
                    "Not Acceptable: Client must accept both application/json and text/event-stream", null);
            return;
        }
        if (!message.isObject()) {
            rpcError(response, callback, 400, -32600, "Invalid Request: the body must be one JSON-RPC message", null);
            return;
        }
        String sessionHeader = request.getHeaders().get("Mcp-Session-Id");

        if ("initialize".equals(method) && upstream.refuseInitialize()) {
            plain(response, callback, 404, "Not Found");
            return;
        }
        if ("initialize".equals(method)) {
            initialize(request, message, response, callback);
            return;
        }
        boolean isRequest = method != null && id != null && !id.isNull();
        if (sessionHeader != null && isRequest && upstream.rejectEverySession()) {
            sessionLost(response, callback, upstream.sessionLossAnswer());
            return;
        }
        if (sessionHeader == null) {
            rpcError(response, callback, 400, -32000, "Bad Request: Mcp-Session-Id header is required", null);
            return;
        }
        FakeSession session = upstream.session(sessionHeader);
        if (session == null) {
            sessionLost(response, callback, upstream.sessionLossAnswer());
            return;
        }
        String version = request.getHeaders().get("MCP-Protocol-Version");
        if (version != null && !LegacyHttpUpstream.SUPPORTED_VERSIONS.contains(version)) {
            rpcError(response, callback, 400, -32000, "Bad Request: Unsupported protocol version: " + version, null);
            return;
        }
        if (method == null) {
            // a response to one of our server->client requests
            if (id != null && !id.isNull()) {
                session.complete(id.asString(), message);
            }
            accepted(response, callback);
            return;
        }
        if (id == null || id.isNull()) {
            if (upstream.silentCloses().take(method, SilentCloses.When.AFTER_RUNNING)) {
                upstream.silentCloses().close(request, callback);
                return;
            }
            accepted(response, callback);
            return;
        }
        ObjectNode params = message.get("params") instanceof ObjectNode p ? p : null;
        boolean stream = upstream.responseMode() == LegacyHttpUpstream.ResponseMode.SSE
                || FakeCatalogue.needsStream(method, params);
        if (stream) {
            answerWithStream(session, id, exchange -> handle(session, method, params, exchange),
                    null, response, callback);
        } else {
            ObjectNode answer = respond(id, () -> handle(session, method, params, noStream()));
            if (upstream.silentCloses().take(dropName, SilentCloses.When.AFTER_RUNNING)) {
                upstream.silentCloses().close(request, callback);
                return;
            }
            json(response, callback, null, answer);
        }
    }

    private void initialize(Request request, JsonNode message, Response response, Callback callback) throws IOException {
        if (upstream.initializeDelayMillis() > 0) {
            try {
                Thread.sleep(upstream.initializeDelayMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                callback.failed(e);
                return;
            }
        }
        String requested = message.path("params").path("protocolVersion").asString("");
        String negotiated = LegacyHttpUpstream.SUPPORTED_VERSIONS.contains(requested) ? requested : "2025-11-25";
        FakeSession session = new FakeSession(UUID.randomUUID().toString(), negotiated);
        upstream.sessions().put(session.id(), session);
        upstream.countInitialize();
        ObjectNode result = NODES.objectNode();
        result.put("protocolVersion", negotiated);
        ObjectNode capabilities = result.putObject("capabilities");
        capabilities.putObject("tools").put("listChanged", true);
        ObjectNode resources = capabilities.putObject("resources");
        if (upstream.offersSubscriptions()) {
            resources.put("subscribe", true);
        }
        capabilities.putObject("prompts");
        result.putObject("serverInfo").put("name", "legacy-fake").put("version", "1.0.0");
        JsonNode id = message.get("id");
        if (upstream.silentCloses().take("initialize", SilentCloses.When.AFTER_RUNNING)) {
            upstream.silentCloses().close(request, callback);
            return;
        }
        if (upstream.responseMode() == LegacyHttpUpstream.ResponseMode.SSE) {
            answerWithStream(session, id, exchange -> result, session.id(), response, callback);
        } else {
            json(response, callback, session.id(), respond(id, () -> result));
        }
    }

    /** Subscriptions belong to the session; everything else to the catalogue. */
    private JsonNode handle(FakeSession session, String method, ObjectNode params, FakeCatalogue.Exchange exchange) {
        boolean subscribe = "resources/subscribe".equals(method);
        if (!subscribe && !"resources/unsubscribe".equals(method)) {
            return upstream.catalogue().handle(method, params, exchange);
        }
        if (!upstream.offersSubscriptions()) {
            throw new RpcError(-32601, "Method not found: " + method);
        }
        String uri = params == null ? "" : params.path("uri").asString("");
        if (!upstream.catalogue().hasResource(uri)) {
            throw new RpcError(-32002, "Resource not found: " + uri);
        }
        if (subscribe) {
            session.subscriptions().add(uri);
        } else {
            session.subscriptions().remove(uri);
        }
        return NODES.objectNode();
    }

    /**
     * Runs the request on its own thread, writing what it sends into the stream's log, and pumps
     * the log to the response, unless this stream is to be cut after its priming event.
     */
    private void answerWithStream(FakeSession session, JsonNode id, Function<FakeCatalogue.Exchange, JsonNode> work,
                                  String sessionHeader, Response response, Callback callback) throws IOException {
        EventLog log = session.newStream();
        EventLog.Event priming = log.append("");
        boolean cut = upstream.takeCut();
        FakeCatalogue.Exchange exchange = exchange(session, log);
        Thread.ofVirtual().name("legacy-upstream-request").start(() -> {
            ObjectNode answer = respond(id, () -> work.apply(exchange));
            log.append(answer.toString());
            log.finish();
        });
        SseResponse sse = SseResponse.open(response, sessionHeader);
        if (cut) {
            sse.write(priming, upstream.cutRetryMillis());
            sse.end();
            upstream.recordCut();
            callback.succeeded();
            return;
        }
        pump(log, 0, sse, response, callback);
    }

    private void get(Request request, Response response, Callback callback) throws IOException {
        String lastEventId = request.getHeaders().get("Last-Event-ID");
        record(request, null, null, null);
        String accept = request.getHeaders().get("Accept");
        if (accept == null || !accept.contains("text/event-stream")) {
            rpcError(response, callback, 406, -32000, "Not Acceptable: Client must accept text/event-stream", null);
            return;
        }
        String sessionHeader = request.getHeaders().get("Mcp-Session-Id");
        if (sessionHeader != null && upstream.rejectEverySession()) {
            sessionLost(response, callback, upstream.sessionLossAnswer());
            return;
        }
        if (sessionHeader == null) {
            rpcError(response, callback, 400, -32000, "Bad Request: Mcp-Session-Id header is required", null);
            return;
        }
        FakeSession session = upstream.session(sessionHeader);
        if (session == null) {
            sessionLost(response, callback, upstream.sessionLossAnswer());
            return;
        }
        if (lastEventId != null) {
            resume(session, lastEventId, response, callback);
            return;
        }
        if (!upstream.listenStreamEnabled()) {
            plain(response, callback, 405, "this server offers no listen stream");
            return;
        }
        if (upstream.listenAnswerDelayMillis() > 0) {
            try {
                Thread.sleep(upstream.listenAnswerDelayMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                callback.failed(e);
                return;
            }
        }
        EventLog listen = session.listenStream();
        EventLog.Event priming = listen.append("");
        int from = EventLog.indexAfter(priming.id()) - 1;
        upstream.listenConnections().incrementAndGet();
        try {
            pump(listen, from, SseResponse.open(response, null), response, callback);
        } finally {
            upstream.listenConnections().decrementAndGet();
        }
    }

    private void resume(FakeSession session, String lastEventId, Response response, Callback callback)
            throws IOException {
        EventLog log = session.stream(EventLog.streamOf(lastEventId));
        int from = EventLog.indexAfter(lastEventId);
        if (log == null || from < 0) {
            rpcError(response, callback, 400, -32000, "Bad Request: unknown Last-Event-ID " + lastEventId, null);
            return;
        }
        SseResponse sse = SseResponse.open(response, null);
        if (!upstream.replayOnResume()) {
            sse.end();
            callback.succeeded();
            return;
        }
        pump(log, from, sse, response, callback);
    }

    private void pump(EventLog log, int from, SseResponse sse, Response response, Callback callback) {
        int next = from;
        try {
            while (upstream.running()) {
                List<EventLog.Event> batch = log.await(next, 500);
                for (EventLog.Event event : batch) {
                    sse.write(event, -1);
                }
                next += batch.size();
                if (log.drained(next)) {
                    break;
                }
            }
            sse.end();
            callback.succeeded();
        } catch (IOException e) {
            callback.failed(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.failed(e);
        }
    }

    private void delete(Request request, Response response, Callback callback) {
        record(request, null, null, null);
        String sessionHeader = request.getHeaders().get("Mcp-Session-Id");
        FakeSession session = sessionHeader == null ? null : upstream.sessions().remove(sessionHeader);
        if (session == null) {
            sessionLost(response, callback, LegacyHttpUpstream.SessionLossAnswer.NOT_FOUND);
            return;
        }
        session.end();
        plain(response, callback, 200, "");
    }

    private static ObjectNode respond(JsonNode id, Supplier<JsonNode> work) {
        ObjectNode answer = NODES.objectNode();
        answer.put("jsonrpc", "2.0");
        answer.set("id", id);
        try {
            answer.set("result", work.get());
        } catch (RpcError e) {
            answer.putObject("error").put("code", e.code()).put("message", e.getMessage());
        }
        return answer;
    }

    private static FakeCatalogue.Exchange exchange(FakeSession session, EventLog log) {
        return new FakeCatalogue.Exchange() {
            @Override
            public void notify(String method, ObjectNode params) {
                log.append(message(null, method, params).toString());
            }

            @Override
            public JsonNode request(String method, ObjectNode params) {
                String requestId = session.nextServerRequestId();
                var answer = session.awaitResponse(requestId);
                log.append(message(NODES.stringNode(requestId), method, params).toString());
                try {
                    JsonNode response = answer.get(ASK_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
                    return response.has("result") ? response.get("result") : response;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RpcError(-32603, "interrupted while waiting for the client");
                } catch (ExecutionException | TimeoutException | CancellationException e) {
                    throw new RpcError(-32603, "the client did not answer " + method);
                }
            }
        };
    }

    private static FakeCatalogue.Exchange noStream() {
        return new FakeCatalogue.Exchange() {
            @Override
            public void notify(String method, ObjectNode params) {
                // a JSON answer has nowhere to put a notification
            }

            @Override
            public JsonNode request(String method, ObjectNode params) {
                throw new RpcError(-32603, "cannot send " + method + " without a stream");
            }
        };
    }

    private static ObjectNode message(JsonNode id, String method, ObjectNode params) {
        ObjectNode message = NODES.objectNode();
        message.put("jsonrpc", "2.0");
        if (id != null) {
            message.set("id", id);
        }
        message.put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    private void sessionLost(Response response, Callback callback, LegacyHttpUpstream.SessionLossAnswer answer) {
        if (answer == LegacyHttpUpstream.SessionLossAnswer.BAD_REQUEST) {
            // byte for byte what the official reference server sends: no id member at all
            plain(response, callback, 400, "application/json",
                    "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"Bad Request: No valid session ID provided\"}}");
        } else {
            rpcError(response, callback, 404, -32001, "Session not found", null);
        }
    }

    private void record(Request request, String rpcMethod, String rpcId, String body) {
        Map<String, String> headers = new HashMap<>();
        for (HttpField field : request.getHeaders()) {
            headers.put(field.getLowerCaseName(), field.getValue());
        }
        upstream.record(new RecordedRequest(request.getMethod(), rpcMethod, rpcId, headers, body, System.nanoTime()));
    }

    private static void accepted(Response response, Callback callback) {
        response.setStatus(202);
        callback.succeeded();
    }

    private static void json(Response response, Callback callback, String sessionId, JsonNode body) {
        response.setStatus(200);
        response.getHeaders().put("Content-Type", "application/json");
        if (sessionId != null) {
            response.getHeaders().put("Mcp-Session-Id", sessionId);
        }
        Content.Sink.write(response, true, body.toString(), callback);
    }

    private static void rpcError(Response response, Callback callback, int status, int code, String message,
                                 JsonNode id) {
        ObjectNode body = NODES.objectNode();
        body.put("jsonrpc", "2.0");
        body.putObject("error").put("code", code).put("message", message);
        body.set("id", id == null ? NODES.nullNode() : id);
        response.setStatus(status);
        response.getHeaders().put("Content-Type", "application/json");
        Content.Sink.write(response, true, body.toString(), callback);
    }

    private static void plain(Response response, Callback callback, int status, String text) {
        plain(response, callback, status, "text/plain", text);
    }

    private static void plain(Response response, Callback callback, int status, String type, String text) {
        response.setStatus(status);
        response.getHeaders().put("Content-Type", type);
        Content.Sink.write(response, true, text, callback);
    }
}

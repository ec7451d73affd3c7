package dev.mcpx.testkit.legacy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Serves {@code GET /sse} and {@code POST /messages} the 2024-11-05 way. */
final class HttpSseHandler extends Handler.Abstract {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final LegacySseUpstream upstream;

    HttpSseHandler(LegacySseUpstream upstream) {
        this.upstream = upstream;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        record(request);
        String path = Request.getPathInContext(request);
        if ("GET".equals(request.getMethod()) && "/sse".equals(path)) {
            stream(response, callback);
        } else if ("POST".equals(request.getMethod()) && "/messages".equals(path)) {
            post(request, response, callback);
        } else {
            text(response, callback, 404, "Not Found");
        }
        return true;
    }

    private void stream(Response response, Callback callback) {
        FakeSession session = new FakeSession(UUID.randomUUID().toString(), "2024-11-05");
        upstream.sessions().put(session.id(), session);
        EventLog log = session.listenStream();
        SseResponse sse = SseResponse.open(response, null);
        String endpoint = upstream.announcedEndpoint() != null ? upstream.announcedEndpoint()
                : "/messages?sessionId=" + session.id();
        int next = 0;
        try {
            sse.writeTyped("endpoint", endpoint);
            while (upstream.running()) {
                List<EventLog.Event> batch = log.await(next, 500);
                for (EventLog.Event event : batch) {
                    sse.writeTyped("message", event.data());
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
        } finally {
            upstream.sessions().remove(session.id());
        }
    }

    private void post(Request request, Response response, Callback callback) throws IOException {
        Fields query = Request.extractQueryParameters(request);
        FakeSession session = upstream.sessions().get(String.valueOf(query.getValue("sessionId")));
        String body = Content.Source.asString(request, StandardCharsets.UTF_8);
        if (session == null) {
            text(response, callback, 404, "Could not find session");
            return;
        }
        JsonNode message;
        try {
            message = JSON.readTree(body);
        } catch (JacksonException e) {
            text(response, callback, 400, "Could not parse message");
            return;
        }
        try {
            upstream.awaitNoStall();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.failed(e);
            return;
        }
        text(response, callback, 202, "Accepted");
        String method = message.path("method").asString(null);
        JsonNode id = message.get("id");
        EventLog log = session.listenStream();
        if (method == null) {
            if (id != null && !id.isNull()) {
                session.complete(id.asString(), message);
            }
            return;
        }
        if (id == null || id.isNull()) {
            return;
        }
        ObjectNode params = message.get("params") instanceof ObjectNode p ? p : null;
        Thread.ofVirtual().name("sse-upstream-request").start(() -> {
            ObjectNode answer = NODES.objectNode();
            answer.put("jsonrpc", "2.0");
            answer.set("id", id);
            try {
                answer.set("result", "initialize".equals(method) ? initializeResult() :
                        upstream.catalogue().handle(method, params, exchange(session, log)));
            } catch (RpcError e) {
                answer.putObject("error").put("code", e.code()).put("message", e.getMessage());
            }
            log.append(answer.toString());
        });
    }

    private static ObjectNode initializeResult() {
        ObjectNode result = NODES.objectNode();
        result.put("protocolVersion", "2024-11-05");
        result.putObject("capabilities").putObject("tools");
        result.putObject("serverInfo").put("name", "sse-fake").put("version", "1.0.0");
        return result;
    }

    private static FakeCatalogue.Exchange exchange(FakeSession session, EventLog log) {
        return new FakeCatalogue.Exchange() {
            @Override
            public void notify(String method, ObjectNode params) {
                ObjectNode message = NODES.objectNode().put("jsonrpc", "2.0").put("method", method);
                message.set("params", params);
                log.append(message.toString());
            }

            @Override
            public JsonNode request(String method, ObjectNode params) {
                String requestId = session.nextServerRequestId();
                var answer = session.awaitResponse(requestId);
                ObjectNode message = NODES.objectNode().put("jsonrpc", "2.0").put("id", requestId).put("method", method);
                message.set("params", params);
                log.append(message.toString());
                try {
                    JsonNode response = answer.get(10, TimeUnit.SECONDS);
                    return response.has("result") ? response.get("result") : response;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RpcError(-32603, "interrupted");
                } catch (ExecutionException | TimeoutException | CancellationException e) {
                    throw new RpcError(-32603, "the client did not answer " + method);
                }
            }
        };
    }

    private void record(Request request) {
        Map<String, String> headers = new HashMap<>();
        for (HttpField field : request.getHeaders()) {
            headers.put(field.getLowerCaseName(), field.getValue());
        }
        upstream.record(new RecordedRequest(request.getMethod(), null, null, headers, null, System.nanoTime()));
    }

    private static void text(Response response, Callback callback, int status, String text) {
        response.setStatus(status);
        response.getHeaders().put("Content-Type", "text/plain");
        Content.Sink.write(response, true, text, callback);
    }
}

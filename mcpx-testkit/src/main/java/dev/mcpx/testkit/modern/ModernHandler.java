package dev.mcpx.testkit.modern;

import dev.mcpx.testkit.chaos.SilentCloses;
import dev.mcpx.testkit.modern.FakeCatalogue.Rejection;
import dev.mcpx.testkit.modern.FakeCatalogue.Tool;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Serves one HTTP exchange of the fake modern upstream: validate, record, dispatch, answer. */
final class ModernHandler extends Handler.Abstract {

    private static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";
    private static final String META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    private static final String META_SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";

    private final ModernHttpUpstream upstream;

    ModernHandler(ModernHttpUpstream upstream) {
        this.upstream = upstream;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        SilentCloses.arrived(request);
        Map<String, List<String>> headers = headersOf(request);
        String httpMethod = request.getMethod();
        if (!"POST".equals(httpMethod)) {
            upstream.requests.add(new RecordedRequest(httpMethod, headers, null, null, null, ""));
            upstream.violations.add(httpMethod + " sent to a modern endpoint");
            response.setStatus(405);
            response.getHeaders().put("Allow", "POST");
            callback.succeeded();
            return true;
        }
        noteViolations(headers);
        String body = Content.Source.asString(request, StandardCharsets.UTF_8);
        ModernHttpUpstream.CannedAnswer canned = upstream.canned.poll();
        if (canned != null) {
            upstream.requests.add(new RecordedRequest(httpMethod, headers, null, null, null, body));
            response.setStatus(canned.status());
            if (canned.contentType() != null) {
                response.getHeaders().put("Content-Type", canned.contentType());
            }
            Content.Sink.write(response, true, canned.body(), callback);
            return true;
        }
        JsonNode message;
        try {
            message = FakeCatalogue.JSON.readTree(body);
        } catch (JacksonException e) {
            upstream.requests.add(new RecordedRequest(httpMethod, headers, null, null, null, body));
            error(response, callback, 400, null, -32700, "Parse error", null);
            return true;
        }
        JsonNode id = message.get("id");
        String method = message.path("method").isString() ? message.get("method").asString() : null;
        JsonNode params = message.path("params");
        String name = nameOf(method, params);
        upstream.requests.add(new RecordedRequest(httpMethod, headers, id, method, name, body));
        String dropName = "tools/call".equals(method) ? name : method;
        if (upstream.silentCloses.take(dropName, SilentCloses.When.BEFORE_RUNNING)) {
            upstream.silentCloses.close(request, callback);
            return true;
        }
        if (method == null) {
            error(response, callback, 400, id, -32600, "a client sends requests and notifications only", null);
            return true;
        }
        JsonNode meta = params.path("_meta");
        String version = meta.path(META_VERSION).isString() ? meta.get(META_VERSION).asString() : null;
        if (version == null || !meta.path(META_CAPABILITIES).isObject()) {
            error(response, callback, 400, id, -32602,
                    "Invalid params: _meta must carry " + META_VERSION + " and " + META_CAPABILITIES, null);
            return true;
        }
        Tool tool = "tools/call".equals(method) && name != null ? upstream.catalogue.tool(name) : null;
        Optional<String> mismatch = HeaderCheck.problem(headers, version, method, params,
                tool == null ? null : tool.definition());
        if (mismatch.isPresent()) {
            upstream.mismatches.add(mismatch.get());
            error(response, callback, 400, id, -32020, "Header mismatch: " + mismatch.get(), null);
            return true;
        }
        if (!upstream.supportedVersions.contains(version)
                || upstream.takeVersionRefusal(method)) {
            ObjectNode data = FakeCatalogue.JSON.createObjectNode();
            upstream.supportedVersions.forEach(data.putArray("supported")::add);
            data.put("requested", version);
            error(response, callback, 400, id, -32022, "Unsupported protocol version", data);
            return true;
        }
        if (id == null) {
            if (upstream.silentCloses.take(dropName, SilentCloses.When.AFTER_RUNNING)) {
                upstream.silentCloses.close(request, callback);
                return true;
            }
            response.setStatus(202);
            callback.succeeded();
            return true;
        }
        upstream.calls.computeIfAbsent(method, k -> new AtomicInteger()).incrementAndGet();
        if ("subscriptions/listen".equals(method) && upstream.refuseListen) {
            error(response, callback, 404, id, -32601, "Method not found: subscriptions/listen", null);
            return true;
        }
        if ("subscriptions/listen".equals(method)) {
            listen(response, callback, id, params.path("notifications"));
            return true;
        }
        Duration delay = upstream.delays.get(name == null ? method : name);
        if (delay != null) {
            Thread.sleep(delay);
        }
        ObjectNode result;
        try {
            result = dispatch(method, name, params, tool);
        } catch (Rejection r) {
            error(response, callback, r.httpStatus, id, r.code, r.getMessage(), r.data);
            return true;
        }
        if (upstream.silentCloses.take(dropName, SilentCloses.When.AFTER_RUNNING)) {
            upstream.silentCloses.close(request, callback);
            return true;
        }
        result.withObjectProperty("_meta").set("io.modelcontextprotocol/serverInfo",
                FakeCatalogue.parse("{'name': 'modern-test-upstream', 'version': '1.0.0'}"));
        ObjectNode reply = FakeCatalogue.JSON.createObjectNode();
        reply.put("jsonrpc", "2.0");
        reply.set("id", id);
        reply.set("result", result);
        List<ObjectNode> events = new ArrayList<>();
        JsonNode progressToken = meta.get("progressToken");
        if (progressToken != null) {
            events.add(progress(progressToken));
        }
        BreakMode breakage = switch (method) {
            case "tools/call", "resources/read", "prompts/get" -> upstream.takeBreakage(name);
            case "tasks/get", "tasks/update", "tasks/cancel" -> upstream.takeBreakage(method);
            default -> null;
        };
        if (breakage != null) {
            broken(response, callback, events, breakage);
        } else if ("tools/call".equals(method) || upstream.sseForEverything) {
            String chaos = params.path("arguments").path("chaos").asString("");
            if (chaos.equals("unknown-id")) {
                events.add(reply.deepCopy().put("id", "never-sent"));
            }
            events.add(reply);
            if (chaos.equals("duplicate")) {
                events.add(reply);
            }
            sse(response, callback, events);
        } else {
            json(response, callback, 200, reply);
        }
        return true;
    }

    private ObjectNode dispatch(String method, String name, JsonNode params, Tool tool) {
        return switch (method) {
            case "server/discover" -> cacheable(FakeCatalogue.parse("""
                    {'resultType': 'complete', 'capabilities': {'tools': {'listChanged': true},
                     'resources': {'subscribe': true, 'listChanged': true}, 'prompts': {'listChanged': true}},
                     'instructions': 'A fake modern upstream for tests.'}"""), true)
                    .<ObjectNode>set("supportedVersions", versions());
            case "tools/list" -> {
                ObjectNode result = FakeCatalogue.complete();
                upstream.catalogue.toolDefinitions().forEach(result.putArray("tools")::add);
                yield cacheable(result, true);
            }
            case "tools/call" -> {
                if (tool == null) {
                    throw new Rejection(200, -32602, "Unknown tool: " + name, null);
                }
                yield tool.body().call(params, upstream.nextExecution(name));
            }
            case "resources/list" -> {
                ObjectNode result = FakeCatalogue.complete();
                ArrayNode list = result.putArray("resources");
                upstream.catalogue.resources().keySet().forEach(uri -> {
                    ObjectNode r = list.addObject();
                    r.put("uri", uri);
                    r.put("name", uri.substring(uri.lastIndexOf('/') + 1));
                    r.put("mimeType", "text/plain");
                });
                yield cacheable(result, true);
            }
            case "resources/templates/list" -> {
                ObjectNode result = FakeCatalogue.complete();
                result.putArray("resourceTemplates");
                yield cacheable(result, true);
            }
            case "resources/read" -> {
                String text = name == null ? null : upstream.catalogue.resources().get(name);
                if (text == null) {
                    throw new Rejection(200, -32602, "Resource not found: " + name, null);
                }
                upstream.nextExecution(name);
                ObjectNode result = FakeCatalogue.complete();
                ObjectNode content = result.putArray("contents").addObject();
                content.put("uri", name);
                content.put("mimeType", "text/plain");
                content.put("text", text);
                yield cacheable(result, false);
            }
            case "prompts/list" -> cacheable(FakeCatalogue.parse("""
                    {'resultType': 'complete', 'prompts': [{'name': 'greeting', 'description': 'Greets someone',
                     'arguments': [{'name': 'who', 'required': true}]}]}"""), true);
            case "prompts/get" -> {
                if (!"greeting".equals(name)) {
                    throw new Rejection(200, -32602, "Unknown prompt: " + name, null);
                }
                upstream.nextExecution(name);
                ObjectNode result = FakeCatalogue.complete();
                ObjectNode messageNode = result.putArray("messages").addObject();
                messageNode.put("role", "user");
                ObjectNode content = messageNode.putObject("content");
                content.put("type", "text");
                content.put("text", "Hello, " + params.path("arguments").path("who").asString("you") + "!");
                yield result;
            }
            case "tasks/get", "tasks/update", "tasks/cancel" -> task(method, params);
            default -> throw new Rejection(404, -32601, "Method not found: " + method, null);
        };
    }

    /**
     * Just enough of the tasks extension for recovery tests: every task id names a completed task;
     * updates and cancels are acknowledged; executions are counted by method.
     */
    private ObjectNode task(String method, JsonNode params) {
        upstream.nextExecution(method);
        ObjectNode result = FakeCatalogue.complete();
        if ("tasks/get".equals(method)) {
            result.put("taskId", params.path("taskId").asString("")).put("status", "completed");
            result.set("result", FakeCatalogue.parse("{'content': [{'type': 'text', 'text': 'task done'}]}"));
        }
        return result;
    }

    private ObjectNode cacheable(ObjectNode result, boolean isPublic) {
        result.put("ttlMs", upstream.ttlMs);
        result.put("cacheScope", isPublic ? "public" : "private");
        return result;
    }

    private ArrayNode versions() {
        ArrayNode array = FakeCatalogue.JSON.createArrayNode();
        upstream.supportedVersions.forEach(array::add);
        return array;
    }

    private void listen(Response response, Callback callback, JsonNode id, JsonNode filter) {
        ListenStream stream = new ListenStream(id, filter);
        stream.resourceSubscriptions.removeAll(upstream.declinedResources);
        startSse(response);
        OutputStream out = Content.Sink.asOutputStream(response);
        try {
            ObjectNode ack = FakeCatalogue.JSON.createObjectNode();
            ack.put("jsonrpc", "2.0");
            ack.put("method", "notifications/subscriptions/acknowledged");
            ObjectNode ackParams = ack.putObject("params");
            ackParams.putObject("_meta").set(META_SUBSCRIPTION, id);
            ackParams.set("notifications", stream.acknowledged());
            // registered before the ack leaves: a change right after the ack queues behind it, never lost
            upstream.listeners.add(stream);
            writeEvent(out, ack);
            if (stream.serve(out) == ListenStream.Ending.ABORT) {
                callback.failed(new IOException("subscription dropped on purpose"));
                return;
            }
            ObjectNode done = FakeCatalogue.JSON.createObjectNode();
            done.put("jsonrpc", "2.0");
            done.set("id", id);
            ObjectNode result = done.putObject("result");
            result.put("resultType", "complete");
            result.putObject("_meta").set(META_SUBSCRIPTION, id);
            writeEvent(out, done);
            out.close();
            callback.succeeded();
        } catch (IOException clientWentAway) {
            callback.failed(clientWentAway);
        } finally {
            upstream.listeners.remove(stream);
        }
    }

    private static void sse(Response response, Callback callback, List<ObjectNode> events) {
        startSse(response);
        OutputStream out = Content.Sink.asOutputStream(response);
        try {
            for (ObjectNode event : events) {
                writeEvent(out, event);
            }
            out.close();
            callback.succeeded();
        } catch (IOException e) {
            callback.failed(e);
        }
    }

    /** The request has run; its response never arrives. */
    private static void broken(Response response, Callback callback, List<ObjectNode> events, BreakMode mode) {
        if (mode == BreakMode.EMPTY) {
            response.setStatus(200);
            response.getHeaders().put("Content-Type", "application/json");
            response.getHeaders().put("Content-Length", "0");
            callback.succeeded();
            return;
        }
        startSse(response);
        OutputStream out = Content.Sink.asOutputStream(response);
        try {
            for (ObjectNode event : events) {
                writeEvent(out, event);
            }
            out.write(": working\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            if (mode == BreakMode.ABORT) {
                callback.failed(new IOException("response stream broken on purpose"));
            } else {
                out.close();
                callback.succeeded();
            }
        } catch (IOException e) {
            callback.failed(e);
        }
    }

    private static void startSse(Response response) {
        response.setStatus(200);
        response.getHeaders().put("Content-Type", "text/event-stream");
        response.getHeaders().put("Cache-Control", "no-cache");
        response.getHeaders().put("X-Accel-Buffering", "no");
    }

    private static void writeEvent(OutputStream out, JsonNode message) throws IOException {
        out.write(("event: message\ndata: " + FakeCatalogue.JSON.writeValueAsString(message) + "\n\n")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static ObjectNode progress(JsonNode token) {
        ObjectNode message = FakeCatalogue.JSON.createObjectNode();
        message.put("jsonrpc", "2.0");
        message.put("method", "notifications/progress");
        ObjectNode params = message.putObject("params");
        params.set("progressToken", token);
        params.put("progress", 1);
        params.put("total", 2);
        return message;
    }

    private static void json(Response response, Callback callback, int status, JsonNode body) {
        response.setStatus(status);
        response.getHeaders().put("Content-Type", "application/json");
        Content.Sink.write(response, true, FakeCatalogue.JSON.writeValueAsString(body), callback);
    }

    private static void error(Response response, Callback callback, int status, JsonNode id, int code,
                              String message, JsonNode data) {
        ObjectNode reply = FakeCatalogue.JSON.createObjectNode();
        reply.put("jsonrpc", "2.0");
        if (id == null) {
            reply.putNull("id");
        } else {
            reply.set("id", id);
        }
        ObjectNode error = reply.putObject("error");
        error.put("code", code);
        error.put("message", message);
        if (data != null) {
            error.set("data", data);
        }
        json(response, callback, status, reply);
    }

    private void noteViolations(Map<String, List<String>> headers) {
        if (headers.containsKey("mcp-session-id")) {
            upstream.violations.add("Mcp-Session-Id sent to a modern endpoint");
        }
        if (headers.containsKey("last-event-id")) {
            upstream.violations.add("Last-Event-ID sent to a modern endpoint");
        }
        String accept = String.join(",", headers.getOrDefault("accept", List.of()));
        if (!accept.contains("application/json") || !accept.contains("text/event-stream")) {
            upstream.violations.add("Accept lacks application/json or text/event-stream: '" + accept + "'");
        }
    }

    private static String nameOf(String method, JsonNode params) {
        if (method == null) {
            return null;
        }
        String field = switch (method) {
            case "tools/call", "prompts/get" -> "name";
            case "resources/read" -> "uri";
            case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
            default -> null;
        };
        JsonNode value = field == null ? null : params.get(field);
        return value != null && value.isString() ? value.asString() : null;
    }

    private static Map<String, List<String>> headersOf(Request request) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (HttpField field : request.getHeaders()) {
            headers.computeIfAbsent(field.getName().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(field.getValue());
        }
        return headers;
    }
}

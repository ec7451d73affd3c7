package dev.mcpx.gateway;

import dev.mcpx.protocol.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A test host over Streamable HTTP, in one era: legacy (initialize, then the session id on
 * every request) or modern (version and names in headers and {@code _meta}, no session).
 */
public final class HttpHost {

    /** What came back: the HTTP status and headers, every JSON-RPC message (SSE or JSON), in order. */
    public record Exchange(int status, Map<String, List<String>> headers, List<JsonNode> messages, String body) {

        /** The response to the request (the last message with an id), or null. */
        public JsonNode reply() {
            for (int i = messages.size() - 1; i >= 0; i--) {
                if (messages.get(i).has("id") && !messages.get(i).has("method")) {
                    return messages.get(i);
                }
            }
            return null;
        }

        public String text() {
            return reply().path("result").path("content").path(0).path("text").asString();
        }

        public int errorCode() {
            return reply().path("error").path("code").asInt();
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI endpoint;
    private final boolean modern;
    private final AtomicLong ids = new AtomicLong();
    private String sessionId;
    private Map<String, String> extraHeaders = Map.of();

    private HttpHost(URI endpoint, boolean modern) {
        this.endpoint = endpoint;
        this.modern = modern;
    }

    public static HttpHost legacy(URI endpoint) {
        return new HttpHost(endpoint, false);
    }

    public static HttpHost modern(URI endpoint) {
        return new HttpHost(endpoint, true);
    }

    public HttpHost headers(Map<String, String> headers) {
        this.extraHeaders = Map.copyOf(headers);
        return this;
    }

    public String sessionId() {
        return sessionId;
    }

    public void sessionId(String id) {
        this.sessionId = id;
    }

    /** Legacy: initialize, keep the session id, send initialized. */
    public Exchange initialize() throws Exception {
        return initialize(Json.object());
    }

    /** The same, declaring {@code capabilities}. */
    public Exchange initialize(ObjectNode capabilities) throws Exception {
        ObjectNode params = Json.object().put("protocolVersion", "2025-11-25");
        params.set("capabilities", capabilities);
        params.putObject("clientInfo").put("name", "http-test-host").put("version", "1");
        Exchange init = request("initialize", params);
        sessionId = init.headers().getOrDefault("mcp-session-id", List.of()).stream().findFirst().orElse(null);
        send(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"), null);
        return init;
    }

    public Exchange request(String method, ObjectNode params) throws Exception {
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", method);
        ObjectNode p = params == null ? Json.object() : params.deepCopy();
        if (modern) {
            ObjectNode meta = p.has("_meta") ? (ObjectNode) p.get("_meta") : p.putObject("_meta");
            meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
            meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "http-test-host").put("version", "1");
            if (!meta.has("io.modelcontextprotocol/clientCapabilities")) {
                meta.putObject("io.modelcontextprotocol/clientCapabilities");
            }
        }
        body.set("params", p);
        return send(body, method);
    }

    public Exchange call(String tool, ObjectNode arguments) throws Exception {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        return request("tools/call", params);
    }

    /** Sends a body as-is, with this host's era headers (for {@code rpcMethod} when non-null). */
    public Exchange send(ObjectNode body, String rpcMethod) throws Exception {
        HttpResponse<String> response = http.send(builder(body, rpcMethod).build(), HttpResponse.BodyHandlers.ofString());
        return exchange(response);
    }

    public HttpRequest.Builder builder(ObjectNode body, String rpcMethod) {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body)));
        if (modern) {
            request.header("MCP-Protocol-Version", "2026-07-28");
            if (rpcMethod != null) {
                request.header("Mcp-Method", rpcMethod);
                JsonNode params = body.path("params");
                String name = params.has("uri") ? params.path("uri").asString()
                        : params.has("taskId") ? params.path("taskId").asString() : params.path("name").asString(null);
                if (name != null && !"initialize".equals(rpcMethod)) {
                    request.header("Mcp-Name", name);
                }
            }
        } else if (sessionId != null) {
            request.header("Mcp-Session-Id", sessionId).header("MCP-Protocol-Version", "2025-11-25");
        }
        extraHeaders.forEach(request::header);
        return request;
    }

    public HttpResponse<String> raw(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    public static Exchange exchange(HttpResponse<String> response) {
        List<JsonNode> messages = new ArrayList<>();
        String type = response.headers().firstValue("content-type").orElse("");
        String body = response.body();
        if (type.startsWith("text/event-stream")) {
            for (String line : body.split("\n")) {
                // a priming event (an id with empty data) carries no message
                if (line.startsWith("data:") && !line.substring(5).isBlank()) {
                    messages.add(Json.parse(line.substring(5).trim()));
                }
            }
        } else if (type.startsWith("application/json") && !body.isBlank()) {
            messages.add(Json.parse(body));
        }
        return new Exchange(response.statusCode(), response.headers().map(), messages, body);
    }

    /**
     * A {@code tools/call} read as it streams: each request the gateway sends this host is
     * answered with {@code answer} (a response body without id), and every message is returned in
     * order, up to and including the call's response.
     */
    public List<JsonNode> callAnswering(String tool, ObjectNode arguments,
                                        java.util.function.Function<JsonNode, ObjectNode> answer) throws Exception {
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 7).put("method", "tools/call");
        body.putObject("params").put("name", tool).set("arguments", arguments);
        HttpResponse<java.util.stream.Stream<String>> response = client().send(builder(body, "tools/call").build(),
                HttpResponse.BodyHandlers.ofLines());
        List<JsonNode> seen = new ArrayList<>();
        if (response.headers().firstValue("content-type").orElse("").startsWith("application/json")) {
            response.body().forEach(line -> seen.add(Json.parse(line)));
            return seen;
        }
        java.util.Iterator<String> lines = response.body().iterator();
        while (lines.hasNext()) {
            String line = lines.next();
            // the priming event (an id and empty data) carries no message
            if (!line.startsWith("data:") || line.substring(5).isBlank()) {
                continue;
            }
            JsonNode message = Json.parse(line.substring(5).trim());
            seen.add(message);
            if (message.has("method") && message.has("id")) {
                ObjectNode reply = answer.apply(message);
                reply.put("jsonrpc", "2.0");
                reply.set("id", message.get("id"));
                int status = send(reply, null).status();
                if (status != 202) {
                    throw new IllegalStateException("the gateway answered the host's reply with HTTP " + status);
                }
            } else if (message.has("id")) {
                break;
            }
        }
        return seen;
    }

    public HttpClient client() {
        return http;
    }

    public URI endpoint() {
        return endpoint;
    }
}

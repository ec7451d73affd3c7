package dev.mcpx.bench;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The fastest honest MCP server for load: one POST endpoint at {@code /mcp}, JSON answers,
 * no recording and no checks (the testkit fakes record every request, which would make the
 * direct baseline slow and growing). Legacy era with a session id, or modern stateless.
 * Tools: {@code echo}, {@code sleep} {ms} (counts how many are in flight at once), and
 * {@code tool_00002..} up to {@code toolCount} for catalogue scale.
 */
public final class FastUpstream implements AutoCloseable {

    /** Which protocol era it speaks. */
    public enum Era { LEGACY, MODERN }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SESSION = UUID.randomUUID().toString();

    private final Era era;
    private final byte[] toolsList;
    private final Server server;
    private final URI url;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();

    private FastUpstream(Era era, int toolCount) throws Exception {
        this.era = era;
        this.toolsList = JSON.writeValueAsBytes(toolsListResult(toolCount));
        QueuedThreadPool threads = new QueuedThreadPool(256);
        threads.setName("fast-upstream-" + era.name().toLowerCase());
        // handlers run on virtual threads, so a thousand sleeping calls need no thousand platform threads
        threads.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server = new Server(threads);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        connector.setAcceptQueueSize(2048);
        server.addConnector(connector);
        server.setHandler(new Endpoint());
        server.start();
        url = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
    }

    public static FastUpstream start(Era era, int toolCount) {
        try {
            return new FastUpstream(era, toolCount);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the fast upstream", e);
        }
    }

    public URI url() {
        return url;
    }

    /** The most {@code sleep} calls that were running at the same time. */
    public int peakInFlight() {
        return peakInFlight.get();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the fast upstream", e);
        }
    }

    private ObjectNode toolsListResult(int toolCount) {
        ObjectNode result = JSON.createObjectNode();
        if (era == Era.MODERN) {
            result.put("resultType", "complete");
        }
        ArrayNode tools = result.putArray("tools");
        tools.add(tool("echo", "Echoes its text argument"));
        tools.add(tool("sleep", "Answers after ms milliseconds"));
        for (int i = 2; i < toolCount; i++) {
            tools.add(tool("tool_%05d".formatted(i), "Synthetic tool number " + i + " for catalogue scale"));
        }
        return result;
    }

    private static ObjectNode tool(String name, String description) {
        ObjectNode tool = JSON.createObjectNode().put("name", name).put("description", description);
        ObjectNode schema = tool.putObject("inputSchema").put("type", "object");
        schema.putObject("properties").putObject("text").put("type", "string");
        tool.putObject("annotations").put("readOnlyHint", true).put("idempotentHint", true);
        return tool;
    }

    private final class Endpoint extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            if (!"POST".equals(request.getMethod())) {
                response.setStatus("DELETE".equals(request.getMethod()) ? 200 : 405);
                callback.succeeded();
                return true;
            }
            JsonNode message = JSON.readTree(Content.Source.asString(request, StandardCharsets.UTF_8));
            JsonNode id = message.get("id");
            if (id == null) {
                response.setStatus(202);
                callback.succeeded();
                return true;
            }
            String method = message.path("method").asString("");
            JsonNode params = message.path("params");
            ObjectNode reply = JSON.createObjectNode().put("jsonrpc", "2.0");
            reply.set("id", id);
            switch (method) {
                case "initialize" -> {
                    if (era == Era.MODERN) {
                        reply.putObject("error").put("code", -32601).put("message", "Method not found");
                    } else {
                        response.getHeaders().put("Mcp-Session-Id", SESSION);
                        ObjectNode result = reply.putObject("result")
                                .put("protocolVersion", params.path("protocolVersion").asString("2025-11-25"));
                        result.putObject("capabilities").putObject("tools");
                        result.putObject("serverInfo").put("name", "fast-upstream").put("version", "1");
                    }
                }
                case "server/discover" -> {
                    if (era == Era.LEGACY) {
                        reply.putObject("error").put("code", -32601).put("message", "Method not found");
                    } else {
                        ObjectNode result = reply.putObject("result").put("resultType", "complete");
                        result.putArray("supportedVersions").add("2026-07-28");
                        result.putObject("capabilities").putObject("tools");
                        result.putObject("_meta").putObject("io.modelcontextprotocol/serverInfo")
                                .put("name", "fast-upstream").put("version", "1");
                    }
                }
                case "tools/list" -> {
                    byte[] head = ("{\"jsonrpc\":\"2.0\",\"id\":" + JSON.writeValueAsString(id) + ",\"result\":")
                            .getBytes(StandardCharsets.UTF_8);
                    byte[] body = new byte[head.length + toolsList.length + 1];
                    System.arraycopy(head, 0, body, 0, head.length);
                    System.arraycopy(toolsList, 0, body, head.length, toolsList.length);
                    body[body.length - 1] = '}';
                    json(response, callback, body);
                    return true;
                }
                case "tools/call" -> {
                    if ("sleep".equals(params.path("name").asString(""))) {
                        sleep(params.path("arguments").path("ms").asLong(100));
                    }
                    ObjectNode result = reply.putObject("result");
                    if (era == Era.MODERN) {
                        result.put("resultType", "complete");
                    }
                    result.putArray("content").addObject().put("type", "text")
                            .put("text", params.path("arguments").path("text").asString(""));
                }
                case "ping" -> reply.putObject("result");
                default -> reply.putObject("error").put("code", -32601).put("message", "Method not found: " + method);
            }
            json(response, callback, JSON.writeValueAsBytes(reply));
            return true;
        }

        private void sleep(long millis) throws InterruptedException {
            peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                Thread.sleep(millis);
            } finally {
                inFlight.decrementAndGet();
            }
        }

        private static void json(Response response, Callback callback, byte[] body) {
            response.setStatus(200);
            response.getHeaders().put("Content-Type", "application/json");
            response.write(true, ByteBuffer.wrap(body), callback);
        }
    }
}

package dev.mcpx.testkit.legacy;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The tools, resources and prompts the fake legacy server offers, and what calling them does. */
final class FakeCatalogue {

    /** What a running request may do besides returning its result. */
    interface Exchange {
        /** Sends a notification on the request's SSE stream. */
        void notify(String method, ObjectNode params);

        /** Sends a server->client request on the request's SSE stream and waits for the answer. */
        JsonNode request(String method, ObjectNode params);
    }

    /** Tools that talk on the response stream before answering, so they always answer with SSE. */
    static final Set<String> STREAMING_TOOLS = Set.of("progress", "ask");

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
    private final AtomicLong counter = new AtomicLong();
    private volatile Set<String> hidden = Set.of();

    void hide(Set<String> tools) {
        hidden = Set.copyOf(tools);
    }

    int executions(String tool) {
        AtomicInteger count = executions.get(tool);
        return count == null ? 0 : count.get();
    }

    long counter() {
        return counter.get();
    }

    JsonNode handle(String method, ObjectNode params, Exchange exchange) {
        ObjectNode p = params == null ? NODES.objectNode() : params;
        return switch (method) {
            case "ping" -> NODES.objectNode();
            case "tools/list" -> toolsList(hidden);
            case "tools/call" -> callTool(p, exchange);
            case "resources/list" -> resourcesList();
            case "resources/read" -> readResource(p.path("uri").asString(""));
            case "prompts/list" -> promptsList();
            case "prompts/get" -> getPrompt(p);
            default -> throw new RpcError(-32601, "Method not found: " + method);
        };
    }

    static boolean needsStream(String method, ObjectNode params) {
        return "tools/call".equals(method) && params != null
                && STREAMING_TOOLS.contains(params.path("name").asString(""));
    }

    private static ObjectNode toolsList(Set<String> hidden) {
        ObjectNode result = NODES.objectNode();
        ArrayNode all = NODES.arrayNode();
        ArrayNode tools = result.putArray("tools");
        tools.add(tool("echo", "Returns its text", true, false, "text", "string"));
        tools.add(tool("add", "Adds a and b", true, false, "a", "number", "b", "number"));
        tools.add(tool("increment", "Adds one to a server-side counter", false, true));
        tools.add(tool("slow", "Sleeps ms milliseconds, then answers", true, false, "ms", "integer"));
        tools.add(tool("progress", "Reports steps progress notifications, then answers", true, false, "steps", "integer"));
        tools.add(tool("ask", "Asks the client (elicitation, sampling or roots), answers with what it said", false, false, "kind", "string"));
        all.addAll(tools);
        tools.removeAll();
        all.forEach(tool -> {
            if (!hidden.contains(tool.path("name").asString())) {
                tools.add(tool);
            }
        });
        return result;
    }

    private static ObjectNode tool(String name, String description, boolean readOnly, boolean destructive,
                                   String... properties) {
        ObjectNode tool = NODES.objectNode();
        tool.put("name", name);
        tool.put("description", description);
        ObjectNode schema = tool.putObject("inputSchema");
        schema.put("type", "object");
        ObjectNode props = schema.putObject("properties");
        for (int i = 0; i + 1 < properties.length; i += 2) {
            props.putObject(properties[i]).put("type", properties[i + 1]);
        }
        ObjectNode annotations = tool.putObject("annotations");
        annotations.put("readOnlyHint", readOnly);
        annotations.put("destructiveHint", destructive);
        return tool;
    }

    private JsonNode callTool(ObjectNode params, Exchange exchange) {
        String name = params.path("name").asString("");
        if (hidden.contains(name)) {
            throw new RpcError(-32602, "Unknown tool: " + name);
        }
        JsonNode args = params.path("arguments");
        String text = switch (name) {
            case "echo" -> args.path("text").asString("");
            case "add" -> format(args.path("a").asDouble() + args.path("b").asDouble());
            case "increment" -> Long.toString(counter.incrementAndGet());
            case "slow" -> {
                sleep(args.path("ms").asLong(100));
                yield "slept " + args.path("ms").asLong(100) + " ms";
            }
            case "progress" -> reportProgress(params, args.path("steps").asInt(3), exchange);
            case "ask" -> ask(args.path("kind").asString("elicitation"), exchange);
            default -> throw new RpcError(-32602, "Unknown tool: " + name);
        };
        executions.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
        ObjectNode result = NODES.objectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text);
        result.put("isError", false);
        return result;
    }

    private static String reportProgress(ObjectNode params, int steps, Exchange exchange) {
        JsonNode token = params.path("_meta").get("progressToken");
        for (int i = 1; i <= steps; i++) {
            if (token != null) {
                ObjectNode progress = NODES.objectNode();
                progress.set("progressToken", token);
                progress.put("progress", i);
                progress.put("total", steps);
                exchange.notify("notifications/progress", progress);
            }
        }
        return "done " + steps + " steps";
    }

    private static String ask(String kind, Exchange exchange) {
        ObjectNode askParams = NODES.objectNode();
        JsonNode answer;
        if ("sampling".equals(kind)) {
            askParams.putArray("messages").addObject().put("role", "user")
                    .putObject("content").put("type", "text").put("text", "Say something");
            askParams.put("maxTokens", 20);
            answer = exchange.request("sampling/createMessage", askParams);
        } else if ("roots".equals(kind)) {
            answer = exchange.request("roots/list", askParams);
        } else {
            askParams.put("mode", "form");
            askParams.put("message", "What is your name?");
            ObjectNode schema = askParams.putObject("requestedSchema");
            schema.put("type", "object");
            schema.putObject("properties").putObject("name").put("type", "string");
            answer = exchange.request("elicitation/create", askParams);
        }
        return answer.toString();
    }

    private static ObjectNode resourcesList() {
        ObjectNode result = NODES.objectNode();
        ArrayNode resources = result.putArray("resources");
        resources.addObject().put("uri", "test://static").put("name", "static").put("mimeType", "text/plain");
        resources.addObject().put("uri", "test://counter").put("name", "counter").put("mimeType", "text/plain");
        return result;
    }

    boolean hasResource(String uri) {
        return "test://static".equals(uri) || "test://counter".equals(uri);
    }

    private ObjectNode readResource(String uri) {
        String text = switch (uri) {
            case "test://static" -> "static text";
            case "test://counter" -> Long.toString(counter.get());
            default -> throw new RpcError(-32002, "Resource not found: " + uri);
        };
        ObjectNode result = NODES.objectNode();
        result.putArray("contents").addObject().put("uri", uri).put("mimeType", "text/plain").put("text", text);
        return result;
    }

    private static ObjectNode promptsList() {
        ObjectNode result = NODES.objectNode();
        ObjectNode greet = result.putArray("prompts").addObject();
        greet.put("name", "greet");
        greet.put("description", "Greets someone");
        greet.putArray("arguments").addObject().put("name", "name").put("required", true);
        return result;
    }

    private static ObjectNode getPrompt(ObjectNode params) {
        if (!"greet".equals(params.path("name").asString(""))) {
            throw new RpcError(-32602, "Unknown prompt: " + params.path("name").asString(""));
        }
        ObjectNode result = NODES.objectNode();
        result.putArray("messages").addObject().put("role", "user").putObject("content")
                .put("type", "text").put("text", "Hello, " + params.path("arguments").path("name").asString("you") + "!");
        return result;
    }

    private static String format(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcError(-32603, "interrupted");
        }
    }
}

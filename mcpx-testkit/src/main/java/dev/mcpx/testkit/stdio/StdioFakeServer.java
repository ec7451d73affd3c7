package dev.mcpx.testkit.stdio;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A fake MCP server that runs as a child process on stdio, for tests that need a real
 * subprocess. Run it with {@link #command(String...)}.
 *
 * <p>Flags: {@code --era legacy|modern} (legacy answers {@code server/discover} with -32601 as
 * legacy SDKs do; modern answers it and needs no initialize); {@code --silent-probe} (legacy that
 * never answers server/discover); {@code --garbage} (writes a non-JSON line before each answer);
 * {@code --stderr TEXT} (writes TEXT to stderr at start); {@code --start-delay MS} (reads
 * nothing for MS milliseconds, like a server that is slow to start); {@code --resources} (legacy:
 * offers the resource {@code fake://note} with {@code resources/subscribe}, and the tool
 * {@code touch} {uri}, which sends {@code notifications/resources/updated} when it is subscribed);
 * {@code --id-last} (writes each answer's members in the TypeScript SDK's order,
 * {@code {"result":...,"jsonrpc":"2.0","id":N}}, id last); {@code --initialize-first} (exits with
 * code 1 when its first request is anything but {@code initialize}, a {@code server/discover}
 * probe included, as some legacy servers do); {@code --ignore-eof} (keeps running after stdin
 * closes, until a signal, as servers with a timer of their own do).
 *
 * <p>Tools: {@code echo} {text}, {@code add} {a,b}, {@code sleep} {ms}, {@code progress} {steps}
 * (progress notifications before the result), {@code die} {code} (exits at once, without
 * answering), {@code huge} {bytes} (a result line of that size), {@code calls} (how many
 * tools/call this process has executed, counting this one), {@code cancellations} (how many
 * {@code notifications/cancelled} this process has received), {@code fail} {why} (a tool result
 * with {@code isError: true} and an unknown field {@code x-extra}), {@code add_tool} {name} (lists
 * one more tool, and says so as a legacy server does, with {@code notifications/tools/list_changed},
 * or, modern, on every {@code subscriptions/listen} that asked for {@code toolsListChanged}; with
 * {@code subscriptionId} {id}, modern, only on that subscription, which need not be open),
 * {@code ping_client} (sends the client a {@code ping} request), {@code stdin} (what the client
 * wrote: {@code invalid} lines that are not one JSON-RPC 2.0 message, {@code responses}, and the
 * cancellations that named a request still unanswered, {@code cancelledUnanswered}, or not, {@code cancelledOther},
 * the requests for a capability this server did not declare, {@code undeclared}, and the open
 * {@code subscriptions/listen} for tool changes, {@code listens}).
 *
 * <p>Chaos, for soak tests: {@code --ledger FILE} appends one line with the tool's name to FILE
 * for every tools/call executed, so executions can be counted across restarts and SIGKILLs.
 * Any tool call may carry a {@code chaos} argument: {@code garbage} (a non-JSON line first),
 * {@code oversized} (a line of {@code size} bytes first), {@code anonymous} (instead of the answer,
 * a result line of {@code size} bytes without an id), {@code duplicate} (the response twice),
 * {@code unknown-id} (a response to an id never sent first), {@code never} (executes, never
 * answers), {@code slow} (waits {@code delay} ms first), {@code deaf} (answers, then never reads
 * stdin again: the gateway's writes to it fill the pipe).
 */
public final class StdioFakeServer {

    private static final String NOTE = "fake://note";
    private final java.util.Set<String> subscribed = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean offersResources;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final PrintStream out;
    private final boolean modern;
    private final boolean silentProbe;
    private final boolean garbage;
    private volatile boolean idLast;
    private final AtomicLong toolCalls = new AtomicLong();
    private final AtomicLong cancellations = new AtomicLong();
    private final AtomicLong unknownIds = new AtomicLong();
    private final AtomicLong invalidLines = new AtomicLong();
    private final AtomicLong responsesReceived = new AtomicLong();
    private final AtomicLong clientPings = new AtomicLong();
    /** The ids of the client's requests this process has not answered yet, and the cancellations that named one or not. */
    private final java.util.Set<JsonNode> unanswered = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final AtomicLong cancelledUnanswered = new AtomicLong();
    private final AtomicLong cancelledOther = new AtomicLong();
    private final AtomicLong undeclared = new AtomicLong();
    private final java.util.List<String> addedTools = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Modern: the ids of the open {@code subscriptions/listen} that asked for tool list changes. */
    private final java.util.Set<JsonNode> toolListeners = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Path ledger;

    private StdioFakeServer(PrintStream out, boolean modern, boolean silentProbe, boolean garbage, Path ledger) {
        this.out = out;
        this.ledger = ledger;
        this.modern = modern;
        this.silentProbe = silentProbe;
        this.garbage = garbage;
    }

    /** The command line that runs this server with the current JVM and class path. */
    public static List<String> command(String... flags) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(StdioFakeServer.class.getName());
        command.addAll(List.of(flags));
        return command;
    }

    public static void main(String[] args) throws Exception {
        boolean modern = false;
        boolean silentProbe = false;
        boolean garbage = false;
        boolean resources = false;
        boolean idLast = false;
        boolean initializeFirst = false;
        boolean ignoreEof = false;
        Path ledger = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--era" -> modern = "modern".equals(args[++i]);
                case "--silent-probe" -> silentProbe = true;
                case "--garbage" -> garbage = true;
                case "--resources" -> resources = true;
                case "--id-last" -> idLast = true;
                case "--initialize-first" -> initializeFirst = true;
                case "--ignore-eof" -> ignoreEof = true;
                case "--ledger" -> ledger = Path.of(args[++i]);
                case "--stderr" -> System.err.println(args[++i]);
                case "--start-delay" -> Thread.sleep(Long.parseLong(args[++i]));
                default -> throw new IllegalArgumentException("unknown flag " + args[i]);
            }
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        StdioFakeServer server = new StdioFakeServer(out, modern, silentProbe, garbage, ledger);
        server.offersResources = resources;
        server.idLast = idLast;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        boolean first = true;
        while ((line = in.readLine()) != null) {
            String message = line;
            if (initializeFirst && first && !"initialize".equals(methodOf(message))) {
                System.err.println("fake server: the first request must be initialize, got " + methodOf(message));
                System.err.flush();
                System.exit(1);
            }
            first = false;
            server.noteArrival(message);
            Thread.ofVirtual().start(() -> server.handle(message));
            if (asksToGoDeaf(message)) {
                Thread.sleep(Long.MAX_VALUE);
            }
        }
        if (ignoreEof) {
            Thread.sleep(Long.MAX_VALUE);
        }
        System.exit(0);
    }

    private static String methodOf(String line) {
        try {
            return JSON.readTree(line).path("method").asString("");
        } catch (RuntimeException e) {
            return "";
        }
    }

    /** Whether a client method belongs to what this server declared: tools always, resources with --resources. */
    private boolean declares(String method) {
        if (method.startsWith("resources/")) {
            return offersResources;
        }
        return !(method.startsWith("prompts/") || method.startsWith("completion/") || method.startsWith("logging/"));
    }

    private static boolean asksToGoDeaf(String line) {
        try {
            return JSON.readTree(line).path("params").path("arguments").path("chaos").asString("").equals("deaf");
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** A request counts as unanswered from the moment it is read, so a cancellation read after it sees it so. */
    private void noteArrival(String line) {
        try {
            JsonNode message = JSON.readTree(line);
            if (message.get("id") instanceof JsonNode id && !message.path("method").asString("").isEmpty()) {
                unanswered.add(id);
            }
        } catch (RuntimeException e) {
            // handle() counts and answers the line that is not JSON
        }
    }

    private void handle(String line) {
        JsonNode message;
        try {
            message = JSON.readTree(line);
        } catch (RuntimeException e) {
            invalidLines.incrementAndGet();
            write(error(NODES.nullNode(), -32700, "parse error"));
            return;
        }
        JsonNode id = message.get("id");
        String method = message.path("method").asString("");
        boolean response = id != null && message.get("method") == null && (message.has("result") || message.has("error"));
        if (!message.isObject() || !message.path("jsonrpc").asString("").equals("2.0") || (method.isEmpty() && !response)) {
            invalidLines.incrementAndGet();
        } else if (response) {
            responsesReceived.incrementAndGet();
        } else if (!declares(method)) {
            undeclared.incrementAndGet();
        }
        if (id == null && method.equals("notifications/cancelled")) {
            // a listen's cancellation ends it; it is no call the cancellations tool counts
            JsonNode cancelled = message.path("params").path("requestId");
            if (!toolListeners.remove(cancelled)) {
                cancellations.incrementAndGet();
                (unanswered.contains(cancelled) ? cancelledUnanswered : cancelledOther).incrementAndGet();
            }
        }
        if (id == null || method.isEmpty()) {
            return;
        }
        ObjectNode params = message.get("params") instanceof ObjectNode p ? p : NODES.objectNode();
        unanswered.add(id);
        try {
            JsonNode result = answer(method, params, id);
            if (result != null) {
                String chaos = params.path("arguments").path("chaos").asString("");
                if (garbage || chaos.equals("garbage")) {
                    writeRaw("this is not json {");
                }
                if (!misbehave(chaos, params.path("arguments"))) {
                    return;
                }
                ObjectNode reply = response(id, "result", result);
                write(reply);
                if (chaos.equals("duplicate")) {
                    write(reply);
                }
                logAfter(params.path("arguments"));
            }
        } catch (ToolError e) {
            write(error(id, e.code, e.getMessage()));
        } finally {
            unanswered.remove(id);
        }
    }

    /** An answer, its members in the order of the SDK this fake stands for. */
    private ObjectNode response(JsonNode id, String member, JsonNode value) {
        ObjectNode reply = NODES.objectNode();
        if (idLast) {
            reply.set(member, value);
            reply.put("jsonrpc", "2.0");
            reply.set("id", id);
        } else {
            reply.put("jsonrpc", "2.0");
            reply.set("id", id);
            reply.set(member, value);
        }
        return reply;
    }

    /**
     * A {@code logAfter} argument (a level): a log line of the session's own, written after the
     * answer, so that no request of the client's is open for it; its data is {@code after TEXT}.
     */
    private void logAfter(JsonNode args) {
        String level = args.path("logAfter").asString("");
        if (level.isEmpty()) {
            return;
        }
        ObjectNode note = NODES.objectNode().put("jsonrpc", "2.0").put("method", "notifications/message");
        note.putObject("params").put("level", level).put("logger", "fake").put("data", "after " + args.path("text").asString(""));
        write(note);
    }

    /** What a {@code chaos} argument does before the answer; false: no answer at all. */
    private boolean misbehave(String chaos, JsonNode args) {
        switch (chaos) {
            case "oversized" -> writeRaw("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":\""
                    + "y".repeat(args.path("size").asInt(1024 * 1024)) + "\"}");
            case "unknown-id" -> {
                ObjectNode stray = NODES.objectNode().put("jsonrpc", "2.0")
                        .put("id", "never-sent-" + unknownIds.incrementAndGet());
                stray.putObject("result");
                write(stray);
            }
            case "anonymous" -> {
                writeRaw("{\"result\":{\"content\":[{\"type\":\"text\",\"text\":\""
                        + "z".repeat(args.path("size").asInt(1024 * 1024)) + "\"}]},\"jsonrpc\":\"2.0\"}");
                return false;
            }
            case "slow" -> sleep(args.path("delay").asLong(500));
            case "never" -> {
                return false;
            }
            default -> {
                // no chaos asked for
            }
        }
        return true;
    }

    private JsonNode answer(String method, ObjectNode params, JsonNode id) {
        return switch (method) {
            case "server/discover" -> {
                if (silentProbe) {
                    yield null;
                }
                if (!modern) {
                    throw new ToolError(-32601, "Method not found");
                }
                ObjectNode result = NODES.objectNode().put("resultType", "complete");
                result.putArray("supportedVersions").add("2026-07-28");
                result.putObject("capabilities").putObject("tools").put("listChanged", true);
                result.putObject("_meta").putObject("io.modelcontextprotocol/serverInfo")
                        .put("name", "stdio-fake").put("version", "1.0.0");
                yield result;
            }
            case "initialize" -> {
                if (modern) {
                    throw new ToolError(-32601, "Method not found: initialize (this server speaks 2026-07-28 only)");
                }
                ObjectNode result = NODES.objectNode()
                        .put("protocolVersion", params.path("protocolVersion").asString("2025-11-25"));
                result.putObject("capabilities").putObject("tools").put("listChanged", true);
                if (offersResources) {
                    ((ObjectNode) result.get("capabilities")).putObject("resources").put("subscribe", true);
                }
                result.putObject("serverInfo").put("name", "stdio-fake").put("version", "1.0.0");
                yield result;
            }
            case "ping" -> NODES.objectNode();
            case "subscriptions/listen" -> {
                if (!modern) {
                    throw new ToolError(-32601, "Method not found: " + method);
                }
                listen(id, params);
                yield null;
            }
            case "tools/list" -> toolsList();
            case "tools/call" -> callTool(params, id);
            case "resources/list", "resources/templates/list", "resources/subscribe", "resources/unsubscribe" -> {
                if (!offersResources) {
                    throw new ToolError(-32601, "Method not found: " + method);
                }
                yield resources(method, params.path("uri").asString(""));
            }
            default -> throw new ToolError(-32601, "Method not found: " + method);
        };
    }

    /** Acknowledges a listen at once and keeps it open: the answer comes only if the server ends it. */
    private void listen(JsonNode id, ObjectNode params) {
        boolean tools = params.path("notifications").path("toolsListChanged").asBoolean(false);
        ObjectNode ack = NODES.objectNode().put("jsonrpc", "2.0").put("method", "notifications/subscriptions/acknowledged");
        ObjectNode ackParams = ack.putObject("params");
        ackParams.putObject("_meta").set("io.modelcontextprotocol/subscriptionId", id);
        ObjectNode agreed = ackParams.putObject("notifications");
        if (tools) {
            agreed.put("toolsListChanged", true);
            toolListeners.add(id);
        }
        write(ack);
    }

    private void toolsChanged() {
        if (!modern) {
            write(NODES.objectNode().put("jsonrpc", "2.0").put("method", "notifications/tools/list_changed"));
            return;
        }
        toolListeners.forEach(this::toolsChanged);
    }

    private void toolsChanged(JsonNode subscription) {
        ObjectNode changed = NODES.objectNode().put("jsonrpc", "2.0").put("method", "notifications/tools/list_changed");
        changed.putObject("params").putObject("_meta").set("io.modelcontextprotocol/subscriptionId", subscription);
        write(changed);
    }

    private ObjectNode resources(String method, String uri) {
        ObjectNode result = NODES.objectNode();
        switch (method) {
            case "resources/list" -> result.putArray("resources").addObject().put("uri", NOTE).put("name", "note");
            case "resources/templates/list" -> result.putArray("resourceTemplates");
            case "resources/subscribe" -> subscribed.add(requireNote(uri));
            default -> subscribed.remove(requireNote(uri));
        }
        return result;
    }

    private static String requireNote(String uri) {
        if (!NOTE.equals(uri)) {
            throw new ToolError(-32002, "Resource not found: " + uri);
        }
        return uri;
    }

    private ObjectNode toolsList() {
        ObjectNode result = NODES.objectNode();
        ArrayNode tools = result.putArray("tools");
        List<String> names = new java.util.ArrayList<>(List.of("echo", "add", "sleep", "progress", "die", "huge", "calls",
                "cancellations", "fail", "touch", "add_tool", "ping_client", "stdin"));
        names.addAll(addedTools);
        for (String name : names) {
            ObjectNode tool = tools.addObject().put("name", name).put("description", "fake " + name);
            tool.putObject("inputSchema").put("type", "object");
            if (name.equals("echo") || name.equals("calls") || name.equals("cancellations")) {
                tool.putObject("annotations").put("readOnlyHint", true);
            }
        }
        return result;
    }

    private ObjectNode callTool(ObjectNode params, JsonNode id) {
        long count = toolCalls.incrementAndGet();
        JsonNode args = params.path("arguments");
        String name = params.path("name").asString("");
        noteExecution(name);
        return switch (name) {
            case "echo" -> text("Echo: " + args.path("text").asString(""));
            case "add" -> text(Long.toString(args.path("a").asLong() + args.path("b").asLong()));
            case "sleep" -> {
                sleep(args.path("ms").asLong(1000));
                yield text("slept");
            }
            case "progress" -> {
                JsonNode token = params.path("_meta").get("progressToken");
                int steps = args.path("steps").asInt(3);
                for (int i = 1; token != null && i <= steps; i++) {
                    ObjectNode note = NODES.objectNode().put("jsonrpc", "2.0").put("method", "notifications/progress");
                    ObjectNode p = note.putObject("params");
                    p.set("progressToken", token);
                    p.put("progress", i).put("total", steps);
                    write(note);
                }
                yield text("done in " + steps + " steps");
            }
            case "die" -> {
                System.err.println("fake server dying on request " + id);
                System.err.flush();
                Runtime.getRuntime().halt(args.path("code").asInt(3));
                yield null;
            }
            case "huge" -> text("x".repeat(args.path("bytes").asInt(1024)));
            case "touch" -> {
                String uri = args.path("uri").asString("");
                if (!subscribed.contains(uri)) {
                    yield text("not subscribed: " + uri);
                }
                ObjectNode note = NODES.objectNode().put("jsonrpc", "2.0").put("method", "notifications/resources/updated");
                note.putObject("params").put("uri", uri);
                write(note);
                yield text("touched " + uri);
            }
            case "calls" -> text(Long.toString(count));
            case "add_tool" -> {
                addedTools.add(args.path("name").asString("added"));
                if (modern && args.has("subscriptionId")) {
                    toolsChanged(args.get("subscriptionId"));
                } else {
                    toolsChanged();
                }
                yield text("added");
            }
            case "cancellations" -> text(Long.toString(cancellations.get()));
            case "ping_client" -> {
                write(NODES.objectNode().put("jsonrpc", "2.0").put("id", "fake-ping-" + clientPings.incrementAndGet())
                        .put("method", "ping"));
                yield text("pinged");
            }
            case "stdin" -> text(JSON.writeValueAsString(NODES.objectNode()
                    .put("invalid", invalidLines.get()).put("responses", responsesReceived.get())
                    .put("cancelledUnanswered", cancelledUnanswered.get()).put("cancelledOther", cancelledOther.get())
                    .put("undeclared", undeclared.get()).put("listens", toolListeners.size())));
            case "fail" -> {
                ObjectNode failed = text("it failed: " + args.path("why").asString("no reason"));
                failed.put("isError", true);
                failed.putObject("x-extra").put("kept", true);
                yield failed;
            }
            default -> {
                if (!addedTools.contains(name)) {
                    throw new ToolError(-32602, "Unknown tool: " + name);
                }
                yield text("ran " + name);
            }
        };
    }

    private synchronized void noteExecution(String tool) {
        if (ledger == null) {
            return;
        }
        try {
            Files.writeString(ledger, tool + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode text(String value) {
        ObjectNode result = NODES.objectNode();
        result.putArray("content").addObject().put("type", "text").put("text", value);
        return result;
    }

    private ObjectNode error(JsonNode id, int code, String message) {
        return response(id, "error", NODES.objectNode().put("code", code).put("message", message));
    }

    private void write(JsonNode message) {
        writeRaw(JSON.writeValueAsString(message));
    }

    private synchronized void writeRaw(String line) {
        out.print(line);
        out.print('\n');
        out.flush();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class ToolError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int code;

        ToolError(int code, String message) {
            super(message);
            this.code = code;
        }
    }
}

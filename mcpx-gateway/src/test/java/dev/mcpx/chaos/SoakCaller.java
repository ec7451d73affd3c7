package dev.mcpx.chaos;

import dev.mcpx.gateway.HttpHost;
import dev.mcpx.protocol.Json;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One host calling tools through the gateway's HTTP front as fast as it is answered, in one
 * era, and now and then hanging up mid-call. Every answer is checked: exactly one JSON-RPC
 * response, carrying the request's own id, with a result or an error.
 */
final class SoakCaller implements Runnable {

    private static final int DISCONNECT_PERCENT = 4;

    private final int index;
    private final HttpHost host;
    private final boolean modern;
    private final Random random;
    private final SoakTally tally;
    private final BooleanSupplier running;
    private long sequence;

    SoakCaller(int index, URI endpoint, boolean modern, long seed, SoakTally tally, BooleanSupplier running) {
        this.index = index;
        this.modern = modern;
        this.host = modern ? HttpHost.modern(endpoint) : HttpHost.legacy(endpoint);
        this.random = new Random(seed * 7919 + index);
        this.tally = tally;
        this.running = running;
    }

    @Override
    public void run() {
        try {
            if (!modern) {
                host.initialize();
            }
        } catch (Exception e) {
            tally.violation("caller " + index + ": initialize failed: " + e);
            return;
        }
        try {
            callUntilStopped();
        } finally {
            host.client().close();
        }
    }

    private void callUntilStopped() {
        while (running.getAsBoolean()) {
            String id = "c" + index + "-" + (++sequence);
            SoakCall call = SoakCall.pick(random, id);
            if (call.chaos() != null) {
                tally.fault("call-" + call.chaos());
            }
            if (random.nextInt(100) < DISCONNECT_PERCENT) {
                hangUp(id, call);
            } else {
                callOnce(id, call);
            }
        }
    }

    private void callOnce(String id, SoakCall call) {
        tally.requested(call.tool());
        tally.viaFront("http");
        HttpHost.Exchange exchange;
        try {
            exchange = host.send(body(id, call), "tools/call");
        } catch (Exception e) {
            tally.violation(id + " " + call.tool() + ": no answer: " + e);
            return;
        }
        List<JsonNode> responses = exchange.messages().stream()
                .filter(m -> m.has("id") && !m.has("method")).toList();
        if (responses.size() > 1) {
            tally.fault("DUPLICATE-ANSWER");
        }
        if (responses.size() != 1) {
            tally.violation(id + " " + call.tool() + ": " + responses.size() + " responses (HTTP " + exchange.status()
                    + "): " + exchange.body());
            return;
        }
        JsonNode response = responses.getFirst();
        if (!id.equals(response.path("id").asString(""))) {
            tally.violation(id + " " + call.tool() + ": answered with id " + response.get("id"));
        } else if (response.has("result") == response.has("error")) {
            tally.violation(id + " " + call.tool() + ": neither result nor error exactly: " + response);
        } else if (response.has("result")) {
            tally.answered("result");
        } else {
            JsonNode error = response.path("error");
            tally.answered("error " + error.path("code").asInt());
            tally.error(call.tool().substring(0, 2) + " " + error.path("code").asInt() + " "
                    + shape(error.path("message").asString("")));
        }
    }

    /** An error message with what varies blanked (numbers, parser excerpts, command lines), so like counts with like. */
    static String shape(String message) {
        String shaped = message.replaceAll("\\[[^\\]]*\\]", "[..]").replaceAll("/\\S*java\\S* .*?(\\)|$)", "<child>$1")
                .replaceAll("[0-9]+", "N");
        return shaped.length() > 140 ? shaped.substring(0, 140) + "..." : shaped;
    }

    /** Sends the call on a raw socket and closes it after a moment, before or while it runs. */
    private void hangUp(String id, SoakCall call) {
        tally.disconnected(call.tool());
        tally.viaFront("http");
        tally.fault("host-disconnect");
        URI endpoint = host.endpoint();
        byte[] body = Json.write(body(id, call)).getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("POST ").append(endpoint.getPath()).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1:").append(endpoint.getPort()).append("\r\n")
                .append("Content-Type: application/json\r\n")
                .append("Accept: application/json, text/event-stream\r\n")
                .append("Content-Length: ").append(body.length).append("\r\n");
        if (modern) {
            head.append("MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: ")
                    .append(call.tool()).append("\r\n");
        } else {
            head.append("MCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: ").append(host.sessionId()).append("\r\n");
        }
        head.append("\r\n");
        try (Socket socket = new Socket(endpoint.getHost(), endpoint.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            Thread.sleep(random.nextInt(300));
            socket.setSoLinger(true, 0);
        } catch (Exception e) {
            tally.violation(id + ": could not even send the call it meant to abandon: " + e);
        }
    }

    private ObjectNode body(String id, SoakCall call) {
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        ObjectNode params = body.putObject("params").put("name", call.tool());
        params.set("arguments", call.arguments().deepCopy());
        if (modern) {
            ObjectNode meta = params.putObject("_meta");
            meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
            meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "soak-host-" + index).put("version", "1");
            meta.putObject("io.modelcontextprotocol/clientCapabilities");
        }
        return body;
    }
}

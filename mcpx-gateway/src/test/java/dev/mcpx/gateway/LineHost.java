package dev.mcpx.gateway;

import dev.mcpx.front.stdio.StdioFront;
import dev.mcpx.protocol.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A test host speaking newline-delimited JSON-RPC to a gateway's stdio front. */
public final class LineHost implements AutoCloseable {

    private final OutputStream toGateway;
    private final Map<String, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
    private final BlockingQueue<JsonNode> notifications = new LinkedBlockingQueue<>();
    private final AtomicLong ids = new AtomicLong();
    /** Every line read that is not one JSON-RPC 2.0 message; the reader goes on past them. */
    private final List<String> notMcp = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    public LineHost(InputStream fromGateway, OutputStream toGateway) {
        this.toGateway = toGateway;
        Thread.ofVirtual().start(() -> read(fromGateway));
    }

    /** A host of a {@link StdioFront} serving {@code gateway} in process, on pipes; closing it closes the front's stdin. */
    public static LineHost ofStdioFront(Gateway gateway) throws IOException {
        return ofStdioFront(gateway, null);
    }

    /** The same, served {@code profile} ({@code serve --stdio --profile}; null: the whole gateway). */
    public static LineHost ofStdioFront(Gateway gateway, String profile) throws IOException {
        Pipe hostToGateway = Pipe.open();
        Pipe gatewayToHost = Pipe.open();
        StdioFront front = new StdioFront(gateway.hostRequests().forProfile(profile), gateway.listChanges(), gateway.frontLimits(),
                Channels.newInputStream(hostToGateway.source()), Channels.newOutputStream(gatewayToHost.sink()));
        Thread.ofVirtual().start(() -> {
            try {
                front.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return new LineHost(Channels.newInputStream(gatewayToHost.source()), Channels.newOutputStream(hostToGateway.sink()));
    }

    private void read(InputStream fromGateway) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(fromGateway, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                JsonNode message;
                try {
                    message = Json.parse(line);
                } catch (RuntimeException e) {
                    notMcp.add(line);
                    continue;
                }
                boolean response = message.has("id") && !message.has("method") && (message.has("result") || message.has("error"));
                if (!message.isObject() || !message.path("jsonrpc").asString("").equals("2.0")
                        || !(response || message.path("method").isString())) {
                    notMcp.add(line);
                    continue;
                }
                if (message.has("id") && !message.has("method")) {
                    replies.computeIfAbsent(message.get("id").toString(), k -> new CompletableFuture<>()).complete(message);
                } else {
                    notifications.add(message);
                }
            }
        } catch (IOException e) {
            replies.values().forEach(reply -> reply.completeExceptionally(e));
        } finally {
            ended.complete(null);
        }
    }

    /** Waits until the gateway closed its output, then returns the lines that were not JSON-RPC messages. */
    public List<String> linesThatWereNotMcp(Duration max) throws Exception {
        ended.get(max.toMillis(), TimeUnit.MILLISECONDS);
        return List.copyOf(notMcp);
    }

    /** Sends a request and returns its id (as JSON text) without waiting. */
    public String send(String method, ObjectNode params) {
        long id = ids.incrementAndGet();
        ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", method);
        if (params != null) {
            request.set("params", params);
        }
        write(request);
        return Long.toString(id);
    }

    /** The whole response message (result or error) to a request sent earlier. */
    public JsonNode reply(String id, Duration max) throws Exception {
        return replies.computeIfAbsent(id, k -> new CompletableFuture<>()).get(max.toMillis(), TimeUnit.MILLISECONDS);
    }

    public JsonNode request(String method, ObjectNode params) throws Exception {
        // generous: the first request to a freshly started JVM on a loaded 2-core machine
        return reply(send(method, params), Duration.ofSeconds(90));
    }

    public void notify(String method, ObjectNode params) {
        ObjectNode notification = Json.object().put("jsonrpc", "2.0").put("method", method);
        if (params != null) {
            notification.set("params", params);
        }
        write(notification);
    }

    public JsonNode nextNotification(Duration max) throws InterruptedException {
        return notifications.poll(max.toMillis(), TimeUnit.MILLISECONDS);
    }

    public void writeRaw(String line) {
        try {
            synchronized (toGateway) {
                toGateway.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                toGateway.flush();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void write(JsonNode message) {
        writeRaw(Json.write(message));
    }

    @Override
    public void close() throws IOException {
        toGateway.close();
    }
}

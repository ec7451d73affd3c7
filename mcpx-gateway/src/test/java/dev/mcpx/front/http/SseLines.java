package dev.mcpx.front.http;

import dev.mcpx.protocol.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/** An SSE stream a test host holds open: its JSON-RPC messages as they come, and a hang-up. */
final class SseLines implements AutoCloseable {

    private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
    private final java.util.concurrent.CountDownLatch opened = new java.util.concurrent.CountDownLatch(1);
    private volatile InputStream body;

    SseLines(HttpClient http, HttpRequest request) {
        Thread.ofVirtual().start(() -> {
            try {
                body = http.send(request, HttpResponse.BodyHandlers.ofInputStream()).body();
                opened.countDown();
                BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (line.startsWith("data:") && line.length() > 5 && !line.substring(5).isBlank()) {
                        messages.add(Json.parse(line.substring(5).trim()));
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the test hung up, or the gateway ended the stream
            }
        });
    }

    /** Waits until the response headers arrived: the gateway has the stream. */
    SseLines awaitOpen() throws InterruptedException {
        if (!opened.await(20, TimeUnit.SECONDS)) {
            throw new AssertionError("the stream did not open within 20 s");
        }
        return this;
    }

    /** The next message with {@code method}, waiting up to 20 s. */
    JsonNode await(String method) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            JsonNode message = messages.poll(200, TimeUnit.MILLISECONDS);
            if (message != null && method.equals(message.path("method").asString(""))) {
                return message;
            }
        }
        throw new AssertionError("no " + method + " within 20 s");
    }

    /** Every message with {@code method} that arrives within {@code quiet}. */
    List<JsonNode> drain(String method, Duration quiet) throws InterruptedException {
        List<JsonNode> found = new ArrayList<>();
        long deadline = System.nanoTime() + quiet.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode message = messages.poll(50, TimeUnit.MILLISECONDS);
            if (message != null && method.equals(message.path("method").asString(""))) {
                found.add(message);
            }
        }
        return found;
    }

    @Override
    public void close() throws IOException {
        InputStream open = body;
        if (open != null) {
            open.close();
        }
    }
}

package dev.mcpx.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.nio.charset.StandardCharsets;
import java.util.function.BiPredicate;

/**
 * A loopback endpoint that forwards each POST to one of two real upstreams (a modern and a
 * legacy fake) chosen by its sequence number: an upstream that changes era under the client as
 * often as the test likes. GET and DELETE are answered 405 (no listen stream).
 */
final class EraFlipper implements AutoCloseable {

    private static final List<String> FORWARDED = List.of("content-type", "accept", "mcp-session-id",
            "mcp-protocol-version", "mcp-method", "mcp-name");

    private final HttpServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicInteger posts = new AtomicInteger();
    private final URI modern;
    private final URI legacy;
    private final BiPredicate<Integer, String> modernFor;

    /** {@code modernFor}: whether POST number n (from 0), with this body, goes to the modern upstream. */
    EraFlipper(URI modern, URI legacy, BiPredicate<Integer, String> modernFor) throws IOException {
        this.modern = modern;
        this.legacy = legacy;
        this.modernFor = modernFor;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/mcp", this::handle);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
    }

    /** How many POSTs arrived. */
    int posts() {
        return posts.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            URI target = modernFor.test(posts.getAndIncrement(), new String(body, StandardCharsets.UTF_8)) ? modern : legacy;
            HttpRequest.Builder forward = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                String lower = name.toLowerCase(Locale.ROOT);
                if (FORWARDED.contains(lower) || lower.startsWith("mcp-param-")) {
                    values.forEach(value -> forward.header(name, value));
                }
            });
            HttpResponse<byte[]> answer;
            try {
                answer = http.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(502, -1);
                return;
            }
            answer.headers().firstValue("Content-Type").ifPresent(v -> exchange.getResponseHeaders().set("Content-Type", v));
            answer.headers().firstValue("Mcp-Session-Id").ifPresent(v -> exchange.getResponseHeaders().set("Mcp-Session-Id", v));
            byte[] bytes = answer.body();
            exchange.sendResponseHeaders(answer.statusCode(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        http.shutdownNow();
    }
}

package dev.mcpx.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Asks an HTTP MCP endpoint for a legacy {@code initialize} until it answers one. */
final class HttpProbe {

    private static final String INITIALIZE = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{},"clientInfo":{"name":"mcpx-bench","version":"1"}}}""";

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private HttpProbe() {
    }

    /**
     * Polls every {@code pollMillis} while the port refuses, and returns {@link System#nanoTime()}
     * when an answer with status 200 arrived.
     */
    static long awaitInitialize(URI url, Duration timeout, long pollMillis, ChildProcess child)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (child != null) {
                child.requireAlive();
            }
            try {
                HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return System.nanoTime();
                }
                last = "HTTP " + response.statusCode();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(pollMillis);
        }
        throw new IllegalStateException(url + " answered no initialize in " + timeout + " (last: " + last + ")");
    }
}

package dev.mcpx.testkit.conformance;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A bare HTTP client for the tests: raw JSON-RPC over POST, SSE read line by line. */
final class McpHttp {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI url;

    McpHttp(URI url) {
        this.url = url;
    }

    HttpResponse<String> post(String body, Map<String, String> headers) throws IOException, InterruptedException {
        return http.send(request(body, headers), HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs and returns the response body as lines, read lazily (for SSE). */
    HttpResponse<Stream<String>> postStreaming(String body, Map<String, String> headers)
            throws IOException, InterruptedException {
        return http.send(request(body, headers), HttpResponse.BodyHandlers.ofLines());
    }

    /** A GET (the legacy SSE stream), body read lazily line by line. */
    HttpResponse<Stream<String>> getStreaming(Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url).GET().header("Accept", "text/event-stream");
        headers.forEach(builder::header);
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofLines());
    }

    HttpResponse<String> delete(String sessionId) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(url).DELETE().header("Mcp-Session-Id", sessionId).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The next SSE data line that is not empty (priming events carry empty data), parsed. */
    static JsonNode nextData(Iterator<String> lines) {
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("data:") && !line.substring(5).isBlank()) {
                return JSON.readTree(line.substring(5).trim());
            }
        }
        throw new AssertionError("the SSE stream ended before another data event");
    }

    private HttpRequest request(String body, Map<String, String> headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
        headers.forEach(builder::header);
        return builder.build();
    }
}

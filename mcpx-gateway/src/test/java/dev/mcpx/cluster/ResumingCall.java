package dev.mcpx.cluster;

import dev.mcpx.protocol.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One legacy host's call read the way a host reads it: it keeps the id of each event, and when
 * the stream ends (or breaks) without the answer it sends a GET with {@code Last-Event-ID}
 * (through the balancer) until the answer comes. Every answer it sees is kept: a call answered
 * twice shows two.
 */
final class ResumingCall {

    private static final int MAX_RESUMES = 10;

    private final HttpClient client;
    private final String sessionId;
    private final URI resumeVia;
    final List<JsonNode> answers = new CopyOnWriteArrayList<>();
    final List<String> failures = new CopyOnWriteArrayList<>();
    /** Completes with the first event id the host got (the priming event): the call streams. */
    final CompletableFuture<String> streaming = new CompletableFuture<>();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    private volatile String lastEventId;
    volatile int resumes;
    /** The POST's HTTP status (0 before it came, or when the connection failed first). */
    volatile int postStatus;

    private ResumingCall(HttpClient client, String sessionId, URI resumeVia) {
        this.client = client;
        this.sessionId = sessionId;
        this.resumeVia = resumeVia;
    }

    /** Posts {@code body} to {@code postTo} and follows the call to its answer. */
    static ResumingCall start(HttpClient client, String sessionId, URI postTo, URI resumeVia, ObjectNode body) {
        ResumingCall call = new ResumingCall(client, sessionId, resumeVia);
        Thread.ofVirtual().name("resuming-call").start(() -> {
            try {
                call.run(postTo, body);
            } catch (Exception e) {
                call.failures.add(e.toString());
            } finally {
                call.streaming.complete(null);
                call.done.complete(null);
            }
        });
        return call;
    }

    /** A host that already got {@code lastEventId} of a call's stream, then lost it: it resumes until the answer comes. */
    static ResumingCall resumeFrom(HttpClient client, String sessionId, URI resumeVia, String lastEventId) {
        ResumingCall call = new ResumingCall(client, sessionId, resumeVia);
        call.lastEventId = lastEventId;
        call.streaming.complete(lastEventId);
        Thread.ofVirtual().name("resuming-call").start(() -> {
            try {
                call.run(null, null);
            } catch (Exception e) {
                call.failures.add(e.toString());
            } finally {
                call.done.complete(null);
            }
        });
        return call;
    }

    private void run(URI postTo, ObjectNode body) throws Exception {
        if (postTo != null) {
            post(postTo, body);
        }
        resumeUntilAnswered();
    }

    private void post(URI postTo, ObjectNode body) throws Exception {
        HttpRequest post = HttpRequest.newBuilder(postTo).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", sessionId)
                .header("MCP-Protocol-Version", "2025-11-25").timeout(Duration.ofMinutes(5))
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build();
        try {
            HttpResponse<InputStream> response = client.send(post, HttpResponse.BodyHandlers.ofInputStream());
            postStatus = response.statusCode();
            if (response.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
                try (InputStream in = response.body()) {
                    answers.add(Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
                }
                return;
            }
            read(response.body());
        } catch (IOException e) {
            // the replica went away under the call: resume from what came
        }
    }

    private void resumeUntilAnswered() throws Exception {
        while (answers.isEmpty()) {
            if (lastEventId == null) {
                failures.add("the call's stream broke before its first event: nothing to resume from");
                return;
            }
            if (resumes >= MAX_RESUMES) {
                failures.add("no answer after " + MAX_RESUMES + " resumes");
                return;
            }
            resumes++;
            HttpRequest get = HttpRequest.newBuilder(resumeVia).header("Accept", "text/event-stream")
                    .header("Mcp-Session-Id", sessionId).header("Last-Event-ID", lastEventId)
                    .timeout(Duration.ofMinutes(5)).GET().build();
            try {
                HttpResponse<InputStream> resumed = client.send(get, HttpResponse.BodyHandlers.ofInputStream());
                if (resumed.statusCode() == 502 || resumed.statusCode() == 503) {
                    // the balancer's, not mcpx's: it sent the GET to the replica dying under it; a host's SDK reconnects
                    resumed.body().close();
                    continue;
                }
                if (resumed.statusCode() != 200) {
                    try (InputStream in = resumed.body()) {
                        failures.add("resume from " + lastEventId + ": HTTP " + resumed.statusCode() + " "
                                + new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    }
                    return;
                }
                read(resumed.body());
            } catch (IOException e) {
                // broke again: resume again
            }
        }
    }

    private void read(InputStream body) throws IOException {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("id:")) {
                    lastEventId = line.substring(3).trim();
                    streaming.complete(lastEventId);
                } else if (line.startsWith("data:") && !line.substring(5).isBlank()) {
                    JsonNode message = Json.parse(line.substring(5).trim());
                    if (message.has("id") && (message.has("result") || message.has("error"))) {
                        answers.add(message);
                    }
                }
            }
        }
    }
}

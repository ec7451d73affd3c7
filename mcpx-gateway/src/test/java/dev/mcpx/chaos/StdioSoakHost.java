package dev.mcpx.chaos;

import dev.mcpx.front.stdio.StdioFront;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.protocol.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One host on the gateway's stdio front (a {@link StdioFront} in process, on pipes, as
 * {@code mcpx serve --stdio} runs it), with several calls in flight at once on its one stream, and
 * now and then a {@code notifications/cancelled} mid-call. Every response line is counted by id:
 * each request must get exactly one, a cancelled one at most one.
 */
final class StdioSoakHost {

    private static final int WORKERS = 3;
    private static final int CANCEL_PERCENT = 4;
    private static final Duration ANSWER_WAIT = Duration.ofSeconds(60);

    private final int index;
    private final long seed;
    private final SoakTally tally;
    private final BooleanSupplier running;
    private final Pipe hostToGateway;
    private final OutputStream toGateway;
    private final Thread front;
    private final Thread reader;
    private final Map<String, AtomicInteger> responses = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
    private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
    private final Set<String> sent = ConcurrentHashMap.newKeySet();

    StdioSoakHost(int index, Gateway gateway, long seed, SoakTally tally, BooleanSupplier running) throws IOException {
        this.index = index;
        this.seed = seed;
        this.tally = tally;
        this.running = running;
        hostToGateway = Pipe.open();
        Pipe gatewayToHost = Pipe.open();
        toGateway = Channels.newOutputStream(hostToGateway.sink());
        StdioFront stdio = new StdioFront(gateway.hostRequests(), gateway.listChanges(), gateway.frontLimits(),
                Channels.newInputStream(hostToGateway.source()), Channels.newOutputStream(gatewayToHost.sink()));
        front = Thread.ofVirtual().name("soak-stdio-front-" + index).start(() -> {
            try {
                stdio.run();
            } catch (IOException e) {
                tally.violation("stdio host " + index + ": the front failed: " + e);
            } finally {
                closeQuietly(gatewayToHost.sink());
            }
        });
        reader = Thread.ofVirtual().name("soak-stdio-reader-" + index)
                .start(() -> read(Channels.newInputStream(gatewayToHost.source())));
    }

    /** Initializes, then calls from several workers until the run ends; returns once they all have stopped. */
    void run() {
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "soak-stdio-host-" + index).put("version", "1");
        JsonNode initialized = exchange("s" + index + "-init", "initialize", init);
        if (initialized == null || !initialized.has("result")) {
            tally.violation("stdio host " + index + ": initialize failed: " + initialized);
            return;
        }
        write(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            workers.add(Thread.ofVirtual().name("soak-stdio-worker").start(() -> work(worker)));
        }
        for (Thread worker : workers) {
            try {
                while (running.getAsBoolean() && worker.isAlive()) {
                    worker.join(Duration.ofSeconds(1));
                }
                worker.join(ANSWER_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (worker.isAlive()) {
                tally.violation("stdio host " + index + ": a worker was still waiting after the run ended");
            }
        }
    }

    private void work(int worker) {
        Random random = new Random(seed * 104_729 + index * 31L + worker);
        long sequence = 0;
        while (running.getAsBoolean()) {
            String id = "s" + index + "-" + worker + "-" + (++sequence);
            SoakCall call = SoakCall.pick(random, id);
            if (call.chaos() != null) {
                tally.fault("call-" + call.chaos());
            }
            if (random.nextInt(100) < CANCEL_PERCENT) {
                cancelMidCall(id, call, random);
            } else {
                callOnce(id, call);
            }
        }
    }

    private void callOnce(String id, SoakCall call) {
        tally.requested(call.tool());
        tally.viaFront("stdio");
        JsonNode response = exchange(id, "tools/call", params(call));
        if (response == null) {
            tally.violation(id + " " + call.tool() + ": no answer on stdio within " + ANSWER_WAIT.toSeconds() + " s");
        } else if (response.has("result") == response.has("error")) {
            tally.violation(id + " " + call.tool() + ": neither result nor error exactly: " + response);
        } else if (response.has("result")) {
            tally.answered("result");
        } else {
            JsonNode error = response.path("error");
            tally.answered("error " + error.path("code").asInt());
            tally.error(call.tool().substring(0, 2) + " " + error.path("code").asInt() + " (stdio) "
                    + SoakCaller.shape(error.path("message").asString("")));
        }
    }

    /** The host gives up on a call: it may still be answered once (the cancel can cross the answer), never twice. */
    private void cancelMidCall(String id, SoakCall call, Random random) {
        tally.disconnected(call.tool());
        tally.viaFront("stdio");
        tally.fault("stdio-host-cancel");
        cancelled.add(id);
        CompletableFuture<JsonNode> answer = send(id, "tools/call", params(call));
        try {
            Thread.sleep(random.nextInt(300));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        write(Json.object().put("jsonrpc", "2.0").put("method", "notifications/cancelled")
                .set("params", Json.object().put("requestId", id).put("reason", "soak host gave up")));
        try {
            answer.get(1, TimeUnit.SECONDS);
        } catch (TimeoutException expected) {
            // a cancelled request need not be answered
        } catch (Exception e) {
            tally.violation(id + ": waiting for a cancelled call failed: " + e);
        }
    }

    /**
     * After the run: waits for stragglers, checks every id was answered exactly once (cancelled
     * ones at most once), then hangs up (closes stdin) and waits for the front to end.
     */
    void finish() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (unanswered() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        for (String id : sent) {
            int count = responses.getOrDefault(id, new AtomicInteger()).get();
            if (count > 1) {
                tally.fault("DUPLICATE-ANSWER");
                tally.violation(id + ": " + count + " responses on stdio");
            } else if (count == 0 && !cancelled.contains(id)) {
                tally.violation(id + ": no response on stdio");
            }
        }
        closeQuietly(hostToGateway.sink());
        front.join(Duration.ofSeconds(30));
        reader.join(Duration.ofSeconds(10));
        if (front.isAlive() || reader.isAlive()) {
            tally.violation("stdio host " + index + ": the front did not end after the host closed stdin");
        }
    }

    private long unanswered() {
        return sent.stream().filter(id -> !cancelled.contains(id) && !responses.containsKey(id)).count();
    }

    private JsonNode exchange(String id, String method, ObjectNode params) {
        try {
            return send(id, method, params).get(ANSWER_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (Exception e) {
            tally.violation(id + ": " + e);
            return null;
        }
    }

    private CompletableFuture<JsonNode> send(String id, String method, ObjectNode params) {
        CompletableFuture<JsonNode> answer = waiting.computeIfAbsent(id, k -> new CompletableFuture<>());
        sent.add(id);
        ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        write(request);
        return answer;
    }

    private static ObjectNode params(SoakCall call) {
        ObjectNode params = Json.object().put("name", call.tool());
        params.set("arguments", call.arguments().deepCopy());
        return params;
    }

    private synchronized void write(ObjectNode message) {
        try {
            toGateway.write((Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8));
            toGateway.flush();
        } catch (IOException e) {
            tally.violation("stdio host " + index + ": writing to the front failed: " + e);
        }
    }

    private void read(java.io.InputStream fromGateway) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(fromGateway, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                JsonNode message = Json.parse(line);
                if (!message.has("id") || message.has("method")) {
                    continue;
                }
                String id = message.path("id").asString("");
                if (!sent.contains(id)) {
                    tally.violation("stdio host " + index + ": a response to an id it never sent: " + line);
                    continue;
                }
                responses.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
                waiting.computeIfAbsent(id, k -> new CompletableFuture<>()).complete(message);
            }
        } catch (IOException | RuntimeException e) {
            tally.violation("stdio host " + index + ": reading the front failed: " + e);
        }
    }

    private static void closeQuietly(java.nio.channels.Channel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}

package dev.mcpx.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.ServeProcess;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.testkit.cluster.HaProxy;
import dev.mcpx.testkit.cluster.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Three real {@code mcpx serve --http} replicas sharing a real redis-server, behind a real HAProxy
 * in round robin with no affinity, all on one legacy upstream: hosts of both eras are served
 * whichever replica each request lands on.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterTest {

    private static final int CALLS = 1_000;
    private static final int HOSTS_AT_ONCE = 4;

    @TempDir
    static Path dir;
    private static RedisServer redis;
    private static LegacyHttpUpstream upstream;
    /** A second upstream whose operator said its {@code slow} tool must never run twice ({@code reissue}: never). */
    private static LegacyHttpUpstream guarded;
    private static RedisClient inspect;
    private static final List<ServeProcess> replicas = new ArrayList<>();
    private static HaProxy balancer;
    private static URI mcp;
    private static String echo;

    @BeforeAll
    static void startCluster() throws Exception {
        redis = RedisServer.start(dir);
        inspect = RedisClient.create(redis.uri());
        upstream = LegacyHttpUpstream.started();
        guarded = LegacyHttpUpstream.started();
        Path config = dir.resolve("mcpx.json");
        ObjectNode root = Json.object();
        ObjectNode upstreams = root.putObject("mcpServers");
        upstreams.putObject("fake").put("url", upstream.url().toString());
        upstreams.putObject("danger").put("url", guarded.url().toString()).putObject("reissue").put("slow", "never");
        root.putObject("mcpx").putObject("cluster").put("redis", redis.uri().toString());
        Files.writeString(config, Json.write(root));
        for (int i = 0; i < 3; i++) {
            replicas.add(ServeProcess.start(Map.of("MCPX_LOG", "WARN"), "serve", "--http", "127.0.0.1:0",
                    "-c", config.toString()));
        }
        List<String> servers = new ArrayList<>();
        for (ServeProcess replica : replicas) {
            replica.awaitListening();
            replica.awaitStderr(Pattern.compile("mcpx: replica (\\S+) of the cluster"));
            servers.add(replica.mcpUri().getHost() + ":" + replica.mcpUri().getPort());
        }
        balancer = HaProxy.roundRobin(dir, servers);
        mcp = URI.create("http://127.0.0.1:" + balancer.port() + "/mcp");
        HttpHost host = HttpHost.modern(mcp);
        for (JsonNode tool : host.request("tools/list", null).reply().path("result").path("tools")) {
            if (tool.path("name").asString().equals("fake__echo")) {
                echo = tool.path("name").asString();
            }
        }
        assertThat(echo).as("the upstream's echo tool, through the balancer").isNotNull();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (balancer != null) {
            balancer.close();
        }
        for (ServeProcess replica : replicas) {
            replica.close();
        }
        if (upstream != null) {
            upstream.close();
        }
        if (guarded != null) {
            guarded.close();
        }
        if (inspect != null) {
            inspect.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    /** Each call is echoed back; anything else is the failure, with what came back. */
    private static List<String> callEchoes(HttpHost host, int calls) throws Exception {
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int w = 0; w < HOSTS_AT_ONCE; w++) {
            int worker = w;
            workers.add(CompletableFuture.runAsync(() -> {
                for (int i = worker; i < calls; i += HOSTS_AT_ONCE) {
                    String text = "call-" + i;
                    try {
                        HttpHost.Exchange exchange = host.call(echo, Json.object().put("text", text));
                        if (exchange.status() != 200 || exchange.reply() == null || !text.equals(exchange.text())) {
                            failures.add(text + ": HTTP " + exchange.status() + " " + exchange.body());
                        }
                    } catch (Exception e) {
                        failures.add(text + ": " + e);
                    }
                }
            }, task -> Thread.ofVirtual().start(task)));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
        return List.copyOf(failures);
    }

    @Test
    @Order(1)
    void aLegacyHostsSessionServesAThousandCallsOnWhicheverReplicaEachLands() throws Exception {
        HttpHost host = HttpHost.legacy(mcp);
        assertThat(host.initialize().status()).isEqualTo(200);
        assertThat(host.sessionId()).isNotNull();
        int before = upstream.requests().size();

        List<String> failures = callEchoes(host, CALLS);

        assertThat(failures).as("calls not answered with their echo").isEmpty();
        assertThat(upstream.requests().subList(before, upstream.requests().size()).stream()
                .filter(request -> "tools/call".equals(request.rpcMethod()))
                .map(RecordedRequest::sessionId).distinct().count())
                .as("the calls went through every replica's own upstream session").isEqualTo(3);
        assertThat(inspect.keys("mcpx:call:*")).as("no answered call is left recorded as running").isEmpty();
    }

    @Test
    @Order(2)
    void aModernHostServesAThousandCallsAndEveryReplicaDescribesTheSameServer() throws Exception {
        HttpHost host = HttpHost.modern(mcp);
        int before = upstream.requests().size();

        List<String> failures = callEchoes(host, CALLS);

        assertThat(failures).as("calls not answered with their echo").isEmpty();
        assertThat(upstream.requests().subList(before, upstream.requests().size()).stream()
                .filter(request -> "tools/call".equals(request.rpcMethod()))
                .map(RecordedRequest::sessionId).distinct().count()).isEqualTo(3);
        List<JsonNode> discovered = new ArrayList<>();
        List<JsonNode> tools = new ArrayList<>();
        for (ServeProcess replica : replicas) {
            HttpHost direct = HttpHost.modern(replica.mcpUri());
            discovered.add(direct.request("server/discover", null).reply().path("result"));
            tools.add(direct.request("tools/list", null).reply().path("result").path("tools"));
        }
        assertThat(discovered.getFirst().toString()).as("server/discover").contains("\"name\":\"mcpx\"");
        assertThat(discovered).as("server/discover from each replica").allSatisfy(result ->
                assertThat(result).isEqualTo(discovered.getFirst()));
        assertThat(tools).as("tools/list from each replica").allSatisfy(result ->
                assertThat(result).isEqualTo(tools.getFirst()));
    }

    @Test
    @Order(3)
    void deleteOnOneReplicaEndsTheSessionOnEveryReplica() throws Exception {
        HttpHost host = HttpHost.legacy(mcp);
        host.initialize();
        for (ServeProcess replica : replicas) {
            HttpHost direct = HttpHost.legacy(replica.mcpUri());
            direct.sessionId(host.sessionId());
            assertThat(direct.request("tools/list", null).status()).as("the session on " + replica.mcpUri()).isEqualTo(200);
        }

        HttpResponse<String> deleted = host.raw(HttpRequest.newBuilder(mcp).header("Mcp-Session-Id", host.sessionId())
                .DELETE().build());

        assertThat(deleted.statusCode()).isEqualTo(200);
        for (ServeProcess replica : replicas) {
            HttpHost direct = HttpHost.legacy(replica.mcpUri());
            direct.sessionId(host.sessionId());
            HttpHost.Exchange after = direct.request("tools/list", null);
            assertThat(after.status()).as("the deleted session on " + replica.mcpUri()).isEqualTo(404);
            assertThat(after.body()).contains("Session not found");
        }
    }

    /** A modern host's tools/call that the legacy upstream answers with an elicitation: held on {@code replica}; the retry to send. */
    private static ObjectNode heldRetry(URI replica) throws Exception {
        ObjectNode first = Json.object().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call");
        ObjectNode params = first.putObject("params").put("name", echo.replace("echo", "ask"));
        params.putObject("arguments").put("kind", "elicitation");
        ObjectNode meta = params.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "cluster-host").put("version", "1");
        meta.putObject("io.modelcontextprotocol/clientCapabilities").putObject("elicitation");
        JsonNode asked = HttpHost.modern(replica).send(first, "tools/call").reply().path("result");
        assertThat(asked.path("resultType").asString()).isEqualTo("input_required");
        ObjectNode retry = first.deepCopy().put("id", 2);
        ObjectNode answers = Json.object();
        answers.putObject(asked.path("inputRequests").propertyNames().iterator().next()).put("action", "decline");
        ((ObjectNode) retry.get("params")).set("inputResponses", answers);
        ((ObjectNode) retry.get("params")).set("requestState", asked.get("requestState"));
        return retry;
    }

    @Test
    @Order(4)
    void aHeldCallsRetryOnAnotherReplicaReachesTheReplicaThatHoldsIt() throws Exception {
        ObjectNode retry = heldRetry(replicas.get(0).mcpUri());

        HttpHost.Exchange elsewhere = HttpHost.modern(replicas.get(1).mcpUri()).send(retry, "tools/call");

        assertThat(elsewhere.reply().path("result").path("resultType").asString())
                .as("finished by the replica holding it: " + elsewhere.body()).isEqualTo("complete");
        assertThat(elsewhere.text()).contains("decline");
        HttpHost.Exchange again = HttpHost.modern(replicas.get(2).mcpUri()).send(retry, "tools/call");
        assertThat(again.errorCode()).as("a token is used once, wherever it comes back").isEqualTo(-32602);
        assertThat(again.reply().path("error").path("message").asString()).contains("already used");
    }

    @Test
    @Order(5)
    void statusNamesEachReplicaAndTheClustersMembers() throws Exception {
        List<String> names = new ArrayList<>();
        for (ServeProcess replica : replicas) {
            names.add(replica.awaitStderr(Pattern.compile("mcpx: replica (\\S+) of the cluster")));
        }
        for (int i = 0; i < replicas.size(); i++) {
            HttpResponse<String> status = HttpHost.modern(mcp).raw(HttpRequest.newBuilder(replicas.get(i).statusUri()).GET().build());
            JsonNode cluster = Json.parse(status.body()).path("cluster");
            assertThat(cluster.path("replica").asString()).isEqualTo(names.get(i));
            List<String> members = new ArrayList<>();
            cluster.path("members").forEach(member -> members.add(member.asString()));
            assertThat(members).containsExactlyInAnyOrderElementsOf(names);
        }
    }

    @Test
    @Order(6)
    void listChangedFromAnUpstreamReachesHostsOnEveryReplica() throws Exception {
        List<BlockingQueue<String>> streams = new ArrayList<>();
        for (ServeProcess replica : replicas) {
            HttpHost legacy = HttpHost.legacy(mcp);
            legacy.initialize();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            HttpResponse<?> opened = legacy.client().sendAsync(HttpRequest.newBuilder(replica.mcpUri())
                            .header("Accept", "text/event-stream").header("Mcp-Session-Id", legacy.sessionId()).GET().build(),
                    HttpResponse.BodyHandlers.ofLines()).thenApply(response -> {
                        Thread.ofVirtual().start(() -> response.body().forEach(lines::add));
                        return response;
                    }).get(60, TimeUnit.SECONDS);
            assertThat(opened.statusCode()).as("the listen stream on " + replica.mcpUri()).isEqualTo(200);
            streams.add(lines);

            HttpHost modern = HttpHost.modern(replica.mcpUri());
            ObjectNode listen = Json.object();
            listen.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                    .putObject("io.modelcontextprotocol/clientCapabilities");
            listen.putObject("notifications").put("toolsListChanged", true);
            ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", "listen").put("method", "subscriptions/listen");
            body.set("params", listen);
            BlockingQueue<String> modernLines = new LinkedBlockingQueue<>();
            modern.client().sendAsync(modern.builder(body, "subscriptions/listen").build(), HttpResponse.BodyHandlers.ofLines())
                    .thenAccept(response -> Thread.ofVirtual().start(() -> response.body().forEach(modernLines::add)));
            assertThat(awaitLine(modernLines, "notifications/subscriptions/acknowledged")).isNotNull();
            streams.add(modernLines);
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> upstream.openListenStreams() >= 3);

        upstream.withoutTools("add");
        String told = upstream.liveSessions().stream().filter(upstream::notifyToolsListChanged).findFirst().orElse(null);

        assertThat(told).as("one replica's upstream session was told").isNotNull();
        for (int i = 0; i < streams.size(); i++) {
            assertThat(awaitLine(streams.get(i), "notifications/tools/list_changed"))
                    .as((i % 2 == 0 ? "legacy" : "modern") + " host on replica " + (i / 2 + 1)).isNotNull();
        }
    }

    /** A legacy host that declared elicitation, initialized on {@code replica}. */
    private static HttpHost elicitingHost(URI replica) throws Exception {
        HttpHost host = HttpHost.legacy(replica);
        ObjectNode params = Json.object().put("protocolVersion", "2025-11-25");
        params.putObject("capabilities").putObject("elicitation");
        params.putObject("clientInfo").put("name", "cluster-host").put("version", "1");
        HttpHost.Exchange init = host.request("initialize", params);
        host.sessionId(init.headers().get("mcp-session-id").getFirst());
        host.send(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"), null);
        return host;
    }

    private static HttpHost sameSessionOn(HttpHost host, URI replica) {
        HttpHost other = HttpHost.legacy(replica);
        other.sessionId(host.sessionId());
        return other;
    }

    @Test
    @Order(7)
    void aLegacyHostsAnswerPostedToAnotherReplicaReachesTheCallThatAsked() throws Exception {
        HttpHost host = elicitingHost(replicas.get(0).mcpUri());
        HttpHost elsewhere = sameSessionOn(host, replicas.get(1).mcpUri());
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 7).put("method", "tools/call");
        body.putObject("params").put("name", echo.replace("echo", "ask")).putObject("arguments").put("kind", "elicitation");
        HttpResponse<java.util.stream.Stream<String>> response = host.client().send(host.builder(body, "tools/call").build(),
                HttpResponse.BodyHandlers.ofLines());
        List<Integer> answerStatuses = new ArrayList<>();

        CompletableFuture<JsonNode> reply = CompletableFuture.supplyAsync(() -> {
            for (String line : (Iterable<String>) response.body()::iterator) {
                if (!line.startsWith("data:") || line.substring(5).isBlank()) {
                    continue;
                }
                JsonNode message = Json.parse(line.substring(5).trim());
                if (message.has("method") && message.has("id")) {
                    ObjectNode answer = Json.object().put("jsonrpc", "2.0").set("id", message.get("id"));
                    answer.putObject("result").put("action", "accept").putObject("content").put("name", "Ada");
                    try {
                        answerStatuses.add(elsewhere.send(answer, null).status());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                } else if (message.has("id")) {
                    return message;
                }
            }
            return null;
        }, task -> Thread.ofVirtual().start(task));

        JsonNode answered = reply.get(60, TimeUnit.SECONDS);
        assertThat(answerStatuses).containsExactly(202);
        assertThat(answered.path("result").path("content").path(0).path("text").asString()).contains("Ada");
    }

    @Test
    @Order(8)
    void aLegacyHostsCancellationPostedToAnotherReplicaCancelsTheCall() throws Exception {
        HttpHost host = elicitingHost(replicas.get(0).mcpUri());
        HttpHost elsewhere = sameSessionOn(host, replicas.get(1).mcpUri());
        long cancelledBefore = cancellationsSeen();
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 8).put("method", "tools/call");
        body.putObject("params").put("name", echo.replace("echo", "slow")).putObject("arguments").put("ms", 120_000);
        host.client().sendAsync(host.builder(body, "tools/call").build(), HttpResponse.BodyHandlers.discarding());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> upstream.requests().stream()
                .anyMatch(request -> "tools/call".equals(request.rpcMethod()) && request.body().contains("120000")));

        ObjectNode cancel = Json.object().put("jsonrpc", "2.0").put("method", "notifications/cancelled");
        cancel.putObject("params").put("requestId", 8).put("reason", "changed my mind");
        assertThat(elsewhere.send(cancel, null).status()).isEqualTo(202);

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> cancellationsSeen() > cancelledBefore);
    }

    private static long cancellationsSeen() {
        return upstream.requests().stream().filter(request -> "notifications/cancelled".equals(request.rpcMethod())).count();
    }

    @Test
    @Order(9)
    void aResumeOnAnotherReplicaGetsTheEventsItMissedThenTheRestOfTheStream() throws Exception {
        HttpHost host = elicitingHost(replicas.get(0).mcpUri());
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 9).put("method", "tools/call");
        body.putObject("params").put("name", echo.replace("echo", "ask")).putObject("arguments").put("kind", "elicitation");
        HttpResponse<java.io.InputStream> first = host.client().send(host.builder(body, "tools/call").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        String primingId = null;
        String askedId = null;
        try (java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(first.body(),
                java.nio.charset.StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null && askedId == null; line = lines.readLine()) {
                if (line.startsWith("id:")) {
                    if (primingId == null) {
                        primingId = line.substring(3).trim();
                    } else {
                        askedId = line.substring(3).trim();
                    }
                }
            }
        }
        // the host went away right after the elicitation request reached it; it resumes from the priming event
        assertThat(askedId).as("the elicitation request's event id").isNotNull();

        HttpResponse<java.io.InputStream> resumed = host.client().send(HttpRequest.newBuilder(replicas.get(1).mcpUri())
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", host.sessionId())
                .header("Last-Event-ID", primingId).timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());

        assertThat(resumed.statusCode()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        JsonNode answer = null;
        HttpHost third = sameSessionOn(host, replicas.get(2).mcpUri());
        try (java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(resumed.body(),
                java.nio.charset.StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null && answer == null; line = lines.readLine()) {
                if (line.startsWith("id:")) {
                    ids.add(line.substring(3).trim());
                } else if (line.startsWith("data:") && !line.substring(5).isBlank()) {
                    JsonNode message = Json.parse(line.substring(5).trim());
                    if (message.has("method") && message.has("id")) {
                        ObjectNode reply = Json.object().put("jsonrpc", "2.0").set("id", message.get("id"));
                        reply.putObject("result").put("action", "accept").putObject("content").put("name", "Grace");
                        assertThat(third.send(reply, null).status()).isEqualTo(202);
                    } else if (message.has("id")) {
                        answer = message;
                    }
                }
            }
        }
        assertThat(ids.getFirst()).as("the missed event, replayed with the id it was sent with").isEqualTo(askedId);
        assertThat(answer).as("the answer, carried from the replica that runs the call").isNotNull();
        assertThat(answer.path("id").asInt()).isEqualTo(9);
        assertThat(answer.path("result").path("content").path(0).path("text").asString()).contains("Grace");
    }

    @Test
    @Order(10)
    void aResourceSubscriptionMadeOnOneReplicaDeliversUpdatesOnTheListenStreamOfAnother() throws Exception {
        HttpHost host = elicitingHost(replicas.get(0).mcpUri());
        String uri = "test://counter";
        assertThat(host.request("resources/subscribe", Json.object().put("uri", uri)).reply().has("result")).isTrue();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        HttpResponse<?> opened = host.client().sendAsync(HttpRequest.newBuilder(replicas.get(1).mcpUri())
                        .header("Accept", "text/event-stream").header("Mcp-Session-Id", host.sessionId()).GET().build(),
                HttpResponse.BodyHandlers.ofLines()).thenApply(response -> {
                    Thread.ofVirtual().start(() -> response.body().forEach(lines::add));
                    return response;
                }).get(60, TimeUnit.SECONDS);
        assertThat(opened.statusCode()).isEqualTo(200);
        // the replica that took the session up subscribed its own upstream session too
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> upstream.subscriptions().values().stream()
                .filter(uris -> uris.contains(uri)).count() >= 2);

        upstream.notifyResourceUpdated(uri);

        assertThat(awaitLine(lines, "notifications/resources/updated")).contains(uri);

        HttpHost third = sameSessionOn(host, replicas.get(2).mcpUri());
        assertThat(third.request("resources/unsubscribe", Json.object().put("uri", uri)).reply().has("result")).isTrue();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> upstream.subscriptions().values().stream()
                .noneMatch(uris -> uris.contains(uri)));
    }

    /** How long the in-flight calls of the kill take on their upstream: the kill comes while all run. */
    private static final int IN_FLIGHT_MS = 8_123;
    private static final int EARLY_MS = 321;

    @Test
    @Order(11)
    void aReplicaKilledMidCallLeavesEveryHostRequestAnsweredOnceAndNoGuardedCallRunTwice() throws Exception {
        ServeProcess victim = replicas.get(2);
        HttpClient client = HttpClient.newHttpClient();
        int guardedBefore = guarded.executions("slow");

        // answered on the victim after its host left: the answer is kept, so it is replayed later, never run again
        String early = newSession();
        ObjectNode earlyBody = call("answered-before-kill", "fake__slow", EARLY_MS);
        HttpResponse<java.io.InputStream> earlyResponse = client.send(HttpRequest.newBuilder(victim.mcpUri())
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", early).header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(earlyBody))).build(), HttpResponse.BodyHandlers.ofInputStream());
        String earlyId;
        try (java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(earlyResponse.body(),
                java.nio.charset.StandardCharsets.UTF_8))) {
            earlyId = lines.readLine().substring(3).trim();
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> answerKept("answered-before-kill"));

        // in flight when the victim dies: legacy hosts posting to each replica (two calls each), modern hosts via the balancer
        List<ResumingCall> legacyCalls = new ArrayList<>();
        List<String> legacyTools = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String session = newSession();
            URI replica = replicas.get(i % 3).mcpUri();
            for (String tool : List.of("fake__slow", "danger__slow")) {
                legacyCalls.add(ResumingCall.start(client, session, replica, mcp, call("legacy-" + i + "-" + tool, tool, IN_FLIGHT_MS)));
                legacyTools.add(tool);
            }
        }
        List<CompletableFuture<HttpHost.Exchange>> modernCalls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String tool = i % 2 == 0 ? "fake__slow" : "danger__slow";
            modernCalls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return HttpHost.modern(mcp).call(tool, Json.object().put("ms", IN_FLIGHT_MS));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, task -> Thread.ofVirtual().start(task)));
        }
        for (ResumingCall call : legacyCalls) {
            assertThat(call.streaming.get(60, TimeUnit.SECONDS)).as("the call streams: " + call.failures).isNotNull();
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() ->
                callsOf(upstream, IN_FLIGHT_MS) == 6 + 3 && callsOf(guarded, IN_FLIGHT_MS) == 6 + 3);

        ObjectNode heldOnVictim = heldRetry(victim.mcpUri());

        victim.process().destroyForcibly();
        assertThat(victim.process().waitFor(60, TimeUnit.SECONDS)).isTrue();

        long retriedAt = System.nanoTime();
        HttpHost.Exchange heldRetry = HttpHost.modern(replicas.get(0).mcpUri()).send(heldOnVictim, "tools/call");
        long retryMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - retriedAt);
        assertThat(heldRetry.errorCode()).as(heldRetry.body()).isEqualTo(-32602);
        assertThat(heldRetry.reply().path("error").path("message").asString()).contains("is gone").contains("without requestState");
        assertThat(retryMillis).as("the held call's holder is gone: told at once").isLessThan(10_000);

        ResumingCall resumedEarly = ResumingCall.resumeFrom(client, early, mcp, earlyId);
        for (ResumingCall call : legacyCalls) {
            call.done.get(3, TimeUnit.MINUTES);
        }
        resumedEarly.done.get(3, TimeUnit.MINUTES);
        int reissued = 0;
        int lost = 0;
        for (int i = 0; i < legacyCalls.size(); i++) {
            ResumingCall call = legacyCalls.get(i);
            String what = legacyTools.get(i) + " posted to replica " + (i / 2 % 3 + 1);
            assertThat(call.failures).as(what).isEmpty();
            assertThat(call.answers).as(what + ": exactly one answer").hasSize(1);
            JsonNode answer = call.answers.getFirst();
            boolean onVictim = i / 2 % 3 == 2;
            if (!onVictim || legacyTools.get(i).equals("fake__slow")) {
                assertThat(answer.path("result").path("content").path(0).path("text").asString()).as(what)
                        .isEqualTo("slept " + IN_FLIGHT_MS + " ms");
                reissued += onVictim ? 1 : 0;
            } else {
                assertThat(answer.path("error").path("code").asInt()).as(what + ": " + answer).isEqualTo(-32003);
                assertThat(answer.path("error").path("message").asString()).contains("stopped");
                lost++;
            }
            assertThat(call.resumes > 0).as(what + " resumed").isEqualTo(onVictim);
        }
        assertThat(reissued).as("read-only calls on the killed replica, run again").isEqualTo(2);
        assertThat(lost).as("guarded calls on the killed replica, answered with the stream-lost error").isEqualTo(2);
        assertThat(resumedEarly.failures).isEmpty();
        assertThat(resumedEarly.answers).hasSize(1);
        assertThat(resumedEarly.answers.getFirst().path("result").path("content").path(0).path("text").asString())
                .isEqualTo("slept " + EARLY_MS + " ms");
        int modernAnswered = 0;
        int modernRefusedByBalancer = 0;
        for (CompletableFuture<HttpHost.Exchange> modern : modernCalls) {
            HttpHost.Exchange exchange = modern.get(3, TimeUnit.MINUTES);
            if (exchange.status() == 200) {
                assertThat(exchange.text()).isEqualTo("slept " + IN_FLIGHT_MS + " ms");
                modernAnswered++;
            } else {
                // the replica died under it before it answered: the balancer says so, the host decides
                assertThat(exchange.status()).as(exchange.body()).isEqualTo(502);
                modernRefusedByBalancer++;
            }
        }
        assertThat(modernAnswered + modernRefusedByBalancer).isEqualTo(6);
        assertThat(modernRefusedByBalancer).as("modern calls the killed replica had").isPositive();

        // counted on the upstreams: each read-only call on the killed replica ran twice, nothing else did
        int runTwice = reissued;
        assertThat(callsOf(upstream, IN_FLIGHT_MS)).as("read-only calls received").isEqualTo(9 + runTwice);
        assertThat(callsOf(upstream, EARLY_MS)).as("the call answered before the kill").isEqualTo(1);
        assertThat(callsOf(guarded, IN_FLIGHT_MS)).as("guarded calls received").isEqualTo(9);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> guarded.executions("slow") == guardedBefore + 9);
        org.awaitility.Awaitility.await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() ->
                guarded.executions("slow") == guardedBefore + 9 && callsOf(upstream, IN_FLIGHT_MS) == 9 + runTwice
                        && callsOf(guarded, IN_FLIGHT_MS) == 9);
    }

    /** A legacy session initialized through the balancer. */
    private static String newSession() throws Exception {
        HttpHost host = HttpHost.legacy(mcp);
        host.initialize();
        host.send(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"), null);
        return host.sessionId();
    }

    private static ObjectNode call(String id, String tool, int ms) {
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        body.putObject("params").put("name", tool).putObject("arguments").put("ms", ms);
        return body;
    }

    /** The {@code slow} calls of {@code ms} milliseconds the upstream received. */
    private static int callsOf(LegacyHttpUpstream on, int ms) {
        return (int) on.requests().stream().filter(request -> "tools/call".equals(request.rpcMethod())
                && request.body().contains("\"slow\"") && request.body().contains("\"ms\":" + ms)).count();
    }

    /** Whether some stream in Redis holds the answer to host request {@code id}. */
    private static boolean answerKept(String id) {
        for (String key : inspect.keys("mcpx:stream:*")) {
            for (var entry : inspect.xrange(key, (redis.clients.jedis.StreamEntryID) null, null)) {
                if ("a".equals(entry.getFields().get("k")) && entry.getFields().get("d").contains(id)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String awaitLine(BlockingQueue<String> lines, String containing) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(1, TimeUnit.SECONDS);
            if (line != null && line.contains(containing)) {
                return line;
            }
        }
        return null;
    }
}

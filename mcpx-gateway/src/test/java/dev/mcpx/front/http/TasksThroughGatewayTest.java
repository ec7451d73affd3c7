package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.conformance.ConformanceUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tasks extension (SEP-2663) through the gateway, over real HTTP, in front of two instances of
 * the conformance fixture ({@code a__*} and {@code b__*}): tasks are created, polled, fed, cancelled
 * and refused exactly as the fixture would do it directly, each through the upstream that made it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TasksThroughGatewayTest {

    private static final String TASKS = "io.modelcontextprotocol/tasks";

    private ConformanceUpstream alpha;
    private ConformanceUpstream beta;
    private Gateway gateway;
    private HttpFront front;

    @BeforeAll
    void start() throws Exception {
        alpha = ConformanceUpstream.start();
        beta = ConformanceUpstream.start();
        gateway = Gateway.start(TestGateways.config(
                TestGateways.withPrefix(UpstreamConfig.of("alpha", UpstreamEndpoint.Http.of(alpha.url().toString())), "a"),
                TestGateways.withPrefix(UpstreamConfig.of("beta", UpstreamEndpoint.Http.of(beta.url().toString())), "b")),
                TestGateways.settings(), Map.of());
        front = HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
    }

    @AfterAll
    void stop() throws Exception {
        front.close();
        gateway.close();
        alpha.close();
        beta.close();
    }

    /** A modern host's request params declaring the tasks extension in its clientCapabilities. */
    private static ObjectNode optedIn(ObjectNode params) {
        params.putObject("_meta").putObject("io.modelcontextprotocol/clientCapabilities")
                .putObject("extensions").putObject(TASKS);
        return params;
    }

    private static ObjectNode toolCall(String tool, ObjectNode arguments) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        return params;
    }

    private JsonNode result(String method, ObjectNode params) throws Exception {
        Exchange exchange = HttpHost.modern(front.mcpUri()).request(method, params);
        assertThat(exchange.reply().has("error")).as(exchange.body()).isFalse();
        return exchange.reply().path("result");
    }

    private String createTask(String tool, ObjectNode arguments) throws Exception {
        JsonNode created = result("tools/call", optedIn(toolCall(tool, arguments)));
        assertThat(created.path("resultType").asString()).as(created.toString()).isEqualTo("task");
        return created.path("taskId").asString();
    }

    private JsonNode taskRequest(String method, String taskId) throws Exception {
        return result(method, optedIn(Json.object().put("taskId", taskId)));
    }

    /** tasks/get until the task is in {@code status} or terminal (generous: the box is loaded). */
    private JsonNode pollUntil(String taskId, String status) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode detailed = taskRequest("tasks/get", taskId);
        while (System.nanoTime() < deadline && !detailed.path("status").asString().equals(status)
                && !Set.of("completed", "failed", "cancelled").contains(detailed.path("status").asString())) {
            Thread.sleep(100);
            detailed = taskRequest("tasks/get", taskId);
        }
        return detailed;
    }

    @Test
    void hostsAreOfferedTheExtensionTheUpstreamsOffer() throws Exception {
        JsonNode discovered = result("server/discover", Json.object());

        assertThat(discovered.path("capabilities").path("extensions").has(TASKS)).as(discovered.toString()).isTrue();
        assertThat(discovered.path("capabilities").has("tasks")).isFalse();
    }

    @Test
    void aTaskCreatedThroughTheGatewayIsPolledToCompletion() throws Exception {
        JsonNode created = result("tools/call", optedIn(toolCall("a__slow_compute",
                Json.object().put("seconds", 1).put("label", "polled"))));

        assertThat(created.path("resultType").asString()).isEqualTo("task");
        assertThat(created.path("status").asString()).isEqualTo("working");
        assertThat(created.path("ttlMs").asInt()).isPositive();
        assertThat(created.path("pollIntervalMs").asInt()).isPositive();
        assertThat(created.has("task")).isFalse();
        String taskId = created.path("taskId").asString();

        JsonNode working = taskRequest("tasks/get", taskId);
        assertThat(working.path("taskId").asString()).isEqualTo(taskId);

        JsonNode done = pollUntil(taskId, "completed");
        assertThat(done.path("status").asString()).isEqualTo("completed");
        assertThat(done.path("taskId").asString()).isEqualTo(taskId);
        assertThat(done.path("resultType").asString()).isEqualTo("complete");
        assertThat(done.at("/result/content/0/text").asString()).isEqualTo("Computed polled after 1s");
    }

    @Test
    void aCancelledTaskSettlesCancelled() throws Exception {
        String taskId = createTask("a__slow_compute", Json.object().put("seconds", 60).put("label", "cancelled"));

        JsonNode ack = taskRequest("tasks/cancel", taskId);

        assertThat(ack.path("resultType").asString()).isEqualTo("complete");
        assertThat(ack.has("taskId")).isFalse();
        assertThat(ack.has("status")).isFalse();
        assertThat(pollUntil(taskId, "cancelled").path("status").asString()).isEqualTo("cancelled");
        assertThat(taskRequest("tasks/cancel", taskId).path("resultType").asString()).as("idempotent").isEqualTo("complete");
    }

    @Test
    void inputForATaskReachesTheUpstreamThatAskedForIt() throws Exception {
        String taskId = createTask("b__confirm_delete", Json.object().put("filename", "notes.txt"));
        JsonNode waiting = pollUntil(taskId, "input_required");
        assertThat(waiting.at("/inputRequests/confirm/method").asString()).isEqualTo("elicitation/create");

        ObjectNode update = optedIn(Json.object().put("taskId", taskId));
        update.putObject("inputResponses").putObject("confirm").put("action", "accept")
                .putObject("content").put("confirm", true);
        JsonNode ack = result("tasks/update", update);

        assertThat(ack.path("resultType").asString()).isEqualTo("complete");
        assertThat(ack.has("taskId")).isFalse();
        assertThat(pollUntil(taskId, "completed").at("/result/content/0/text").asString()).isEqualTo("Deleted notes.txt");
    }

    @Test
    void tasksOfTwoUpstreamsAreEachRoutedToTheirOwn() throws Exception {
        String fromAlpha = createTask("a__slow_compute", Json.object().put("seconds", 0).put("label", "alpha"));
        String fromBeta = createTask("b__slow_compute", Json.object().put("seconds", 0).put("label", "beta"));

        assertThat(fromAlpha).isNotEqualTo(fromBeta);
        assertThat(pollUntil(fromAlpha, "completed").at("/result/content/0/text").asString())
                .isEqualTo("Computed alpha after 0s");
        assertThat(pollUntil(fromBeta, "completed").at("/result/content/0/text").asString())
                .isEqualTo("Computed beta after 0s");
    }

    @Test
    void anUnknownTaskIdIsInvalidParams() throws Exception {
        for (String taskId : new String[] {"no-such-task", "YWxwaGE.no-such-task", "Z2FtbWE.task-1"}) {
            Exchange exchange = HttpHost.modern(front.mcpUri()).request("tasks/get", optedIn(Json.object().put("taskId", taskId)));

            assertThat(exchange.errorCode()).as(taskId + ": " + exchange.body()).isEqualTo(-32602);
            assertThat(exchange.reply().at("/error/data/taskId").asString()).isEqualTo(taskId);
        }
    }

    @Test
    void aHostThatDidNotOptInIsRefusedTaskMethodsAndGetsPlainResults() throws Exception {
        String taskId = createTask("a__slow_compute", Json.object().put("seconds", 60).put("label", "gated"));
        HttpHost host = HttpHost.modern(front.mcpUri());

        Exchange refused = host.request("tasks/get", Json.object().put("taskId", taskId));
        JsonNode plain = host.call("a__slow_compute", Json.object().put("seconds", 0).put("label", "plain")).reply().path("result");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.errorCode()).isEqualTo(-32021);
        assertThat(refused.reply().at("/error/data/requiredCapabilities/extensions").has(TASKS)).isTrue();
        assertThat(plain.path("resultType").asString()).isEqualTo("complete");
        assertThat(plain.has("taskId")).isFalse();
        taskRequest("tasks/cancel", taskId);
    }

    @Test
    void aMismatchedMcpNameOnATaskRequestIsRejected() throws Exception {
        String taskId = createTask("a__slow_compute", Json.object().put("seconds", 60).put("label", "headers"));
        HttpHost host = HttpHost.modern(front.mcpUri());
        ObjectNode params = optedIn(Json.object().put("taskId", taskId));
        ObjectNode meta = (ObjectNode) params.get("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "tasks-test-host").put("version", "1");
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 1).put("method", "tasks/get");
        body.set("params", params);

        Exchange mismatched = HttpHost.exchange(host.raw(host.builder(body, "tasks/get")
                .setHeader("Mcp-Name", "some-other-task").build()));

        assertThat(mismatched.status()).isEqualTo(400);
        assertThat(mismatched.errorCode()).isEqualTo(-32020);
        taskRequest("tasks/cancel", taskId);
    }

    @Test
    void aLegacyHostNeverMeetsATask() throws Exception {
        HttpHost host = HttpHost.legacy(front.mcpUri());
        host.initialize();

        JsonNode plain = host.call("a__slow_compute", Json.object().put("seconds", 0).put("label", "legacy")).reply().path("result");
        Exchange taskMethod = host.request("tasks/get", Json.object().put("taskId", "YWxwaGE.task-1"));

        assertThat(plain.has("taskId")).as(plain.toString()).isFalse();
        assertThat(plain.at("/content/0/text").asString()).isEqualTo("Computed legacy after 0s");
        assertThat(taskMethod.errorCode()).isEqualTo(-32601);
    }
}

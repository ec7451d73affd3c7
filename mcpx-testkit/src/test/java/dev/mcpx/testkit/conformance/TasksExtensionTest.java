package dev.mcpx.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The tasks extension (SEP-2663) of the 2026-07-28 side: create, wait for input, update, complete. */
class TasksExtensionTest {

    private static final String WITH_TASKS = """
            "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                     "io.modelcontextprotocol/clientCapabilities":{"elicitation":{},
                        "extensions":{"io.modelcontextprotocol/tasks":{}}}}""";
    private static final String WITHOUT_TASKS = """
            "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                     "io.modelcontextprotocol/clientCapabilities":{}}""";

    private static ConformanceUpstream upstream;
    private static McpHttp http;

    @BeforeAll
    static void start() {
        upstream = ConformanceUpstream.start();
        http = new McpHttp(upstream.url());
    }

    @AfterAll
    static void stop() {
        upstream.close();
    }

    @Test
    void aTaskWaitsForInputThenCompletes() throws Exception {
        JsonNode created = call("tools/call", "confirm_delete",
                "{\"name\":\"confirm_delete\",\"arguments\":{\"filename\":\"a.txt\"}," + WITH_TASKS + "}");
        assertThat(created.get("resultType").asString()).isEqualTo("task");
        String taskId = created.get("taskId").asString();

        JsonNode waiting = pollUntil(taskId, "input_required");
        assertThat(waiting.at("/inputRequests/confirm/method").asString()).isEqualTo("elicitation/create");

        JsonNode ack = call("tasks/update", taskId, "{\"taskId\":\"" + taskId + "\",\"inputResponses\":"
                + "{\"confirm\":{\"action\":\"accept\",\"content\":{\"confirm\":true}}}," + WITH_TASKS + "}");
        assertThat(ack.get("resultType").asString()).isEqualTo("complete");
        assertThat(ack.has("taskId")).isFalse();

        JsonNode done = pollUntil(taskId, "completed");
        assertThat(done.at("/result/content/0/text").asString()).isEqualTo("Deleted a.txt");
    }

    @Test
    void withoutTheExtensionTaskMethodsAreRefused() throws Exception {
        HttpResponse<String> response = http.post(
                body("tasks/get", "{\"taskId\":\"nope\"," + WITHOUT_TASKS + "}"),
                Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tasks/get", "Mcp-Name", "nope"));

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = McpHttp.JSON.readTree(response.body()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32021);
        assertThat(error.at("/data/requiredCapabilities/extensions").has("io.modelcontextprotocol/tasks")).isTrue();
    }

    @Test
    void cancelIsFinal() throws Exception {
        String taskId = call("tools/call", "slow_compute",
                "{\"name\":\"slow_compute\",\"arguments\":{\"seconds\":60}," + WITH_TASKS + "}").get("taskId").asString();

        call("tasks/cancel", taskId, "{\"taskId\":\"" + taskId + "\"," + WITH_TASKS + "}");

        assertThat(pollUntil(taskId, "cancelled").has("result")).isFalse();
    }

    private static JsonNode pollUntil(String taskId, String status) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        JsonNode task;
        do {
            task = call("tasks/get", taskId, "{\"taskId\":\"" + taskId + "\"," + WITH_TASKS + "}");
            if (task.get("status").asString().equals(status)) {
                return task;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("task " + taskId + " never reached " + status + "; last seen " + task);
    }

    private static JsonNode call(String method, String name, String params) throws Exception {
        HttpResponse<String> response = http.post(body(method, params),
                Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method, "Mcp-Name", name));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return McpHttp.JSON.readTree(response.body()).get("result");
    }

    private static String body(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
    }
}

package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.TasksExtension;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * 2026-07-28 basic/index.md: a resultType the client does not recognise is invalid. "task" is
 * recognised only when the request declared the tasks extension, or when the embedding code says
 * it handles tasks itself; an upstream that hands one out otherwise gets its caller an error.
 */
class ResultTypeTest {

    private ModernHttpUpstream upstream;

    @BeforeEach
    void start() {
        upstream = ModernHttpUpstream.start().putTaskTool("make_task");
    }

    @AfterEach
    void stop() {
        upstream.close();
    }

    private McpClient.Builder client() {
        return McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("modern").requestTimeout(Duration.ofSeconds(10));
    }

    private static ObjectNode call() {
        return Json.object().put("name", "make_task").set("arguments", Json.object());
    }

    @Test
    void aTaskTheRequestDidNotOptInToIsAnInvalidResult() {
        try (McpClient client = client().build().connect()) {
            assertThatThrownBy(() -> client.request("tools/call", call()))
                    .isInstanceOfSatisfying(McpErrorException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCodes.INTERNAL_ERROR);
                        assertThat(e.getMessage()).contains("resultType \"task\"");
                        assertThat(e.error().data().path("resultType").asString()).isEqualTo("task");
                    });
        }
    }

    @Test
    void aRequestDeclaringTheExtensionGetsItsTask() {
        ObjectNode declared = Json.object();
        declared.putObject("extensions").putObject(TasksExtension.ID);
        try (McpClient client = client().build().connect()) {
            JsonNode result = client.request("tools/call", call(), RequestOptions.defaults().withClientCapabilities(declared));

            assertThat(result.path("resultType").asString()).isEqualTo("task");
            assertThat(result.path("taskId").asString()).startsWith("task-");
        }
    }

    @Test
    void aClientThatHandlesTasksItselfGetsTheTaskEvenUndeclared() {
        try (McpClient client = client().handledResultTypes(Set.of(TasksExtension.RESULT_TYPE)).build().connect()) {
            assertThat(client.request("tools/call", call()).path("resultType").asString()).isEqualTo("task");
        }
    }
}

package dev.mcpx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.testkit.chaos.SilentCloses.When;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A request's recovery listener hears exactly the recoveries that request got, and nothing for a plain call. */
class RecoveryListenerTest {

    private final List<RecoveryTaken> heard = new CopyOnWriteArrayList<>();
    private LegacyHttpUpstream upstream;
    private McpClient client;

    @BeforeEach
    void start() {
        upstream = LegacyHttpUpstream.started();
        client = McpClient.builder(new UpstreamEndpoint.Http(upstream.url(), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE))
                .name("legacy").protocolVersion(ProtocolVersion.V2025_11_25).requestTimeout(Duration.ofSeconds(20))
                .build().connect();
        assertThat(client.listTools()).isNotEmpty();
    }

    @AfterEach
    void stop() {
        client.close();
        upstream.close();
    }

    private String call(String tool) {
        return client.callTool(tool, Json.object().put("text", "hi"), RequestOptions.defaults().withRecoveries(heard::add))
                .path("content").path(0).path("text").asString();
    }

    @Test
    void aPlainCallHearsNothing() {
        assertThat(call("echo")).isEqualTo("hi");
        assertThat(heard).isEmpty();
    }

    @Test
    void aCallAfterARestartHearsOneReinitialize() {
        upstream.restart();
        assertThat(call("echo")).isEqualTo("hi");
        assertThat(heard).containsExactly(RecoveryTaken.REINITIALIZE);
    }

    @Test
    void aReadOnlyCallThatGotNoResponseHearsOneReissue() {
        upstream.closeWithoutAnswer("echo", 1, When.BEFORE_RUNNING);
        assertThat(call("echo")).isEqualTo("hi");
        assertThat(heard).containsExactly(RecoveryTaken.REISSUE);
    }

    @Test
    void aDestructiveCallThatGotNoResponseHearsTheDeclinedReissue() {
        upstream.closeWithoutAnswer("increment", 1, When.AFTER_RUNNING);
        assertThatThrownBy(() -> call("increment")).isInstanceOf(StreamLostException.class);
        assertThat(heard).containsExactly(RecoveryTaken.REISSUE_DECLINED);
    }
}

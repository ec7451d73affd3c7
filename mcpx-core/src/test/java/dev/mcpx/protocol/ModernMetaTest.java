package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.JsonRpcMessage.Request;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ModernMetaTest {

    private final ModernMeta meta = ModernMeta.of(ProtocolVersion.V2026_07_28, "mcpx", "0.1.0", Json.object());

    @Test
    void addsTheRequiredFieldsAndKeepsOtherMetaKeys() {
        ObjectNode params = Json.object();
        params.put("name", "get_weather");
        params.putObject("_meta").put("progressToken", "p1");

        ObjectNode sent = meta.applyTo(params);

        assertThat(Json.write(sent.get("_meta"))).isEqualTo("{\"progressToken\":\"p1\","
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"mcpx\",\"version\":\"0.1.0\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}");
        assertThat(params.get("_meta").size()).as("the caller's params are not changed").isEqualTo(1);
        assertThat(ModernMeta.read(sent)).contains(meta);
        assertThat(ModernMeta.protocolVersionOf(new Request(RequestId.of(1), "tools/call", sent))).contains("2026-07-28");
    }

    @Test
    void aRequestWithoutTheRequiredFieldsHasNoModernMeta() {
        ObjectNode params = Json.object();
        params.putObject("_meta").put(MetaKeys.PROTOCOL_VERSION, "2026-07-28");

        assertThat(ModernMeta.read(params)).isEmpty();
        assertThat(ModernMeta.read(null)).isEmpty();
        assertThat(ModernMeta.protocolVersionOf(new Request(RequestId.of(1), "tools/list", null))).isEmpty();
    }
}

package dev.mcpx.router;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.front.http.HttpFront;
import dev.mcpx.front.http.HttpSecurity;
import dev.mcpx.gateway.Gateway;
import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Test hosts of both eras for the era-bridge tests, talking real HTTP to the gateway's front. */
final class BridgeHosts {

    private BridgeHosts() {
    }

    /** A gateway in front of the one legacy upstream at {@code url} (tools prefixed {@code l}), once that is up. */
    static Gateway legacyOnly(URI url, Gateway.Settings settings) throws Exception {
        Gateway gateway = Gateway.start(TestGateways.config(TestGateways.withPrefix(
                UpstreamConfig.of("legacy", UpstreamEndpoint.Http.of(url.toString())), "l")), settings, Map.of());
        gateway.pool().awaitFirstAttempts(Duration.ofSeconds(60));
        assertThat(gateway.pool().require("legacy").status().era()).isEqualTo("legacy");
        return gateway;
    }

    /** The gateway's HTTP front on a loopback port of its own. */
    static HttpFront front(Gateway gateway) throws Exception {
        return HttpFront.start(gateway, new InetSocketAddress("127.0.0.1", 0), HttpSecurity.NONE, Duration.ofMillis(200));
    }

    /** A legacy host that declared {@code capabilities} at initialize. */
    static HttpHost legacy(URI mcp, ObjectNode capabilities) throws Exception {
        HttpHost host = HttpHost.legacy(mcp);
        ObjectNode params = Json.object().put("protocolVersion", "2025-11-25");
        params.set("capabilities", capabilities);
        params.putObject("clientInfo").put("name", "bridge-host").put("version", "1");
        HttpHost.Exchange init = host.request("initialize", params);
        host.sessionId(init.headers().get("mcp-session-id").getFirst());
        host.send(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"), null);
        return host;
    }

    static ObjectNode capabilities(String... names) {
        ObjectNode capabilities = Json.object();
        for (String name : names) {
            capabilities.putObject(name);
        }
        return capabilities;
    }

    /**
     * A legacy host's tools/call, read as it streams: each request the gateway sends the host is
     * answered with {@code answer} (a JSON-RPC response body without id), the rest collected.
     */
    static List<JsonNode> legacyCall(HttpHost host, String tool, ObjectNode arguments,
                                     Function<JsonNode, ObjectNode> answer) throws Exception {
        return host.callAnswering(tool, arguments, answer);
    }

    static List<String> methods(List<JsonNode> messages) {
        return messages.stream().filter(m -> m.has("method")).map(m -> m.path("method").asString()).toList();
    }

    static String text(JsonNode reply) {
        return reply.path("result").path("content").path(0).path("text").asString();
    }

    /** A 2026-07-28 tools/call body declaring {@code capabilities}; {@code logLevel} null: none. */
    static ObjectNode modernCall(int id, String tool, ObjectNode capabilities, String logLevel) {
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        ObjectNode params = body.putObject("params").put("name", tool);
        params.putObject("arguments");
        ObjectNode meta = params.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "bridge-host").put("version", "1");
        meta.set("io.modelcontextprotocol/clientCapabilities", capabilities);
        if (logLevel != null) {
            meta.put("io.modelcontextprotocol/logLevel", logLevel);
        }
        return body;
    }

    /** The same call retried with the host's answers and the echoed state. */
    static ObjectNode retry(ObjectNode first, int id, ObjectNode inputResponses, JsonNode requestState) {
        ObjectNode retry = first.deepCopy().put("id", id);
        ObjectNode params = (ObjectNode) retry.get("params");
        params.set("inputResponses", inputResponses);
        params.set("requestState", requestState);
        return retry;
    }

    static ObjectNode samplingAnswer(String text) {
        ObjectNode result = Json.object().put("role", "assistant").put("model", "test-model");
        result.putObject("content").put("type", "text").put("text", text);
        return result;
    }

    static ObjectNode elicitationAnswer(String field, String value) {
        ObjectNode result = Json.object().put("action", "accept");
        result.putObject("content").put(field, value);
        return result;
    }

    static ObjectNode resultOf(ObjectNode result) {
        ObjectNode reply = Json.object();
        reply.set("result", result);
        return reply;
    }
}

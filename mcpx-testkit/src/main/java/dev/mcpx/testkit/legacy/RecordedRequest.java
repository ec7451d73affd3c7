package dev.mcpx.testkit.legacy;

import java.util.Map;

/**
 * One HTTP request the fake upstream received, as a test wants to inspect it.
 *
 * @param httpMethod POST, GET or DELETE
 * @param rpcMethod  the JSON-RPC method of a POSTed request or notification, else null
 * @param rpcId      the JSON text of the JSON-RPC id ({@code 7} or {@code "a"}), else null
 * @param headers    request headers, names in lower case
 * @param body       the body as the server decoded it (strict UTF-8), or null when there was none
 * @param nanoTime   {@link System#nanoTime()} when the request arrived
 */
public record RecordedRequest(String httpMethod, String rpcMethod, String rpcId,
                              Map<String, String> headers, String body, long nanoTime) {

    public RecordedRequest {
        headers = Map.copyOf(headers);
    }

    public String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    public String sessionId() {
        return header("Mcp-Session-Id");
    }

    public String protocolVersion() {
        return header("MCP-Protocol-Version");
    }

    public String lastEventId() {
        return header("Last-Event-ID");
    }

    /** A POST carrying a JSON-RPC request (it has both a method and an id). */
    public boolean isRpcRequest() {
        return "POST".equals(httpMethod) && rpcMethod != null && rpcId != null;
    }
}

package dev.mcpx.client;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a request carries besides the caller's params: a modern request's {@code _meta}
 * (version, client info, declared capabilities), a progress token, and on an MRTR retry the
 * answers to the upstream's input requests.
 */
final class RequestParams {

    private final ObjectNode clientInfo;
    private final ObjectNode capabilities;
    private final ServerRequestHandler serverRequests;

    RequestParams(ObjectNode clientInfo, ObjectNode capabilities, ServerRequestHandler serverRequests) {
        this.clientInfo = clientInfo;
        this.capabilities = capabilities;
        this.serverRequests = serverRequests;
    }

    /** A copy of the caller's params with the modern {@code _meta} and a progress token added. */
    ObjectNode prepare(ObjectNode params, RequestOptions options, RequestId id, ProtocolVersion metaVersion) {
        if (metaVersion == null && options.progress() == null) {
            return params;
        }
        ObjectNode copy = params == null ? Json.object() : params.deepCopy();
        JsonNode existing = copy.get(MetaKeys.META);
        ObjectNode meta = existing instanceof ObjectNode m ? m : copy.putObject(MetaKeys.META);
        if (metaVersion != null) {
            meta.put(MetaKeys.PROTOCOL_VERSION, metaVersion.wire());
            meta.set(MetaKeys.CLIENT_INFO, clientInfo.deepCopy());
            meta.set(MetaKeys.CLIENT_CAPABILITIES, declared(options).deepCopy());
        }
        if (options.progress() != null) {
            meta.set(MetaKeys.PROGRESS_TOKEN, id.toJson());
        }
        return copy;
    }

    /** What a modern request declares in {@code _meta}: the caller's capabilities for it, or the client's. */
    ObjectNode declared(RequestOptions options) {
        return options.clientCapabilities() != null ? options.clientCapabilities() : capabilities;
    }

    /** MRTR: the retry carries the original params plus the answers and the echoed state, nothing else. */
    ObjectNode answerInputRequests(ObjectNode original, JsonNode inputRequired, RequestOptions options) {
        ServerRequestHandler handler = options.serverRequests() != null ? options.serverRequests() : serverRequests;
        ObjectNode retry = original == null ? Json.object() : original.deepCopy();
        retry.remove("inputResponses");
        retry.remove("requestState");
        JsonNode requests = inputRequired.path("inputRequests");
        if (requests instanceof ObjectNode asked && !asked.isEmpty()) {
            ObjectNode answers = retry.putObject("inputResponses");
            for (Map.Entry<String, JsonNode> entry : asked.properties()) {
                JsonNode request = entry.getValue();
                String method = Json.text(request, "method");
                ObjectNode params = Json.objectAt(request, "params");
                answers.set(entry.getKey(), handler.handle(method, params == null ? Json.object() : params));
            }
        }
        JsonNode state = inputRequired.get("requestState");
        if (state != null) {
            retry.set("requestState", state);
        }
        return retry;
    }
}

package dev.mcpx.testkit.conformance;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Response;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Streamable HTTP as of 2026-07-28: stateless, every request carries its protocol version and
 * client capabilities in {@code _meta} and mirrors method and name into headers; server-to-client
 * input goes through MRTR; change notifications only on subscriptions/listen streams.
 */
final class ModernTransport {

    static final String VERSION = "2026-07-28";
    static final List<String> SUPPORTED = List.of(VERSION);
    static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";
    static final String META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
    static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    static final String META_SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";
    private static final Set<String> CACHEABLE = Set.of(
            "server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read");
    private static final long KEEP_ALIVE_MS = 5_000;

    private final Catalog catalog;
    private final CountDownLatch closing;

    ModernTransport(Catalog catalog, CountDownLatch closing) {
        this.catalog = catalog;
        this.closing = closing;
    }

    void post(HttpFields headers, JsonNode message, Response response) throws InterruptedException {
        if (!message.isObject() || Json.string(message, "method") == null) {
            reject(response, null, RpcError.of(RpcError.INVALID_REQUEST, "Expected a single JSON-RPC request"));
            return;
        }
        JsonNode id = message.get("id");
        if (id == null) {
            Exchange.writeEmpty(response, 202);
            return;
        }
        String method = message.get("method").asString();
        ObjectNode params = Json.objectOrEmpty(message.get("params"));
        RpcError invalid = validate(headers, method, params);
        if (invalid != null) {
            reject(response, id, invalid);
            return;
        }
        if (method.equals("subscriptions/listen")) {
            listen(id, params, response);
            return;
        }
        Exchange exchange = Exchange.modern(response);
        try {
            ObjectNode result = dispatch(method, params, exchange);
            exchange.finish(Json.result(id, decorate(method, result)), 200);
        } catch (RpcError.RpcException failed) {
            exchange.finish(Json.error(id, failed.error()), failed.error().httpStatus());
        }
    }

    private RpcError validate(HttpFields headers, String method, ObjectNode params) {
        String versionHeader = headers.get("MCP-Protocol-Version");
        if (versionHeader == null) {
            return RpcError.of(RpcError.HEADER_MISMATCH, "Header mismatch: missing MCP-Protocol-Version header");
        }
        JsonNode meta = params.get("_meta");
        if (meta == null || !meta.isObject() || Json.string(meta, META_VERSION) == null
                || meta.get(META_CAPABILITIES) == null || !meta.get(META_CAPABILITIES).isObject()) {
            return RpcError.of(RpcError.INVALID_PARAMS, "Invalid params: _meta must carry "
                    + META_VERSION + " and " + META_CAPABILITIES);
        }
        String version = Json.string(meta, META_VERSION);
        if (!versionHeader.trim().equals(version)) {
            return RpcError.of(RpcError.HEADER_MISMATCH,
                    "Header mismatch: MCP-Protocol-Version header does not match _meta " + META_VERSION);
        }
        if (!SUPPORTED.contains(version)) {
            ObjectNode data = Json.object();
            ArrayNode supported = data.putArray("supported");
            SUPPORTED.forEach(supported::add);
            data.put("requested", version);
            return new RpcError(RpcError.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version: " + version, data);
        }
        ObjectNode schema = method.equals("tools/call") ? catalog.tools().inputSchema(Json.string(params, "name")) : null;
        return HeaderValidation.check(headers, method, params, schema);
    }

    private ObjectNode dispatch(String method, ObjectNode params, Exchange exchange) throws InterruptedException {
        return switch (method) {
            case "server/discover" -> discover();
            case "tools/list" -> catalog.tools().list();
            case "tools/call" -> FixtureRunner.runModern(catalog.tools().fixture(Json.string(params, "name")),
                    call(params, exchange), catalog.tasks());
            case "prompts/list" -> catalog.prompts().list();
            case "prompts/get" -> FixtureRunner.runModern(catalog.prompts().fixture(Json.string(params, "name")),
                    call(params, exchange), catalog.tasks());
            case "resources/list" -> catalog.resources().list();
            case "resources/templates/list" -> catalog.resources().templates();
            case "resources/read" -> catalog.resources().read(Json.string(params, "uri"), true);
            case "completion/complete" -> Completions.complete(params);
            case "tasks/get", "tasks/update", "tasks/cancel" ->
                    catalog.tasks().handle(method, params, (ObjectNode) params.get("_meta").get(META_CAPABILITIES));
            // initialize, ping, logging/setLevel and resources/(un)subscribe were removed in 2026-07-28,
            // tasks/result and tasks/list in the tasks extension's v2.
            default -> throw RpcError.of(RpcError.METHOD_NOT_FOUND, "Method not found: " + method).exception();
        };
    }

    private static ObjectNode discover() {
        ObjectNode result = Json.object();
        ArrayNode versions = result.putArray("supportedVersions");
        SUPPORTED.forEach(versions::add);
        ObjectNode capabilities = LegacyTransport.capabilities();
        capabilities.putObject("extensions").putObject(TaskStore.EXTENSION);
        result.set("capabilities", capabilities);
        result.put("instructions", "Fixtures for the MCP conformance server scenarios.");
        return result;
    }

    /** resultType, serverInfo in _meta, and for cacheable results ttlMs and cacheScope (SEP-2549). */
    private ObjectNode decorate(String method, ObjectNode result) {
        if (!result.has("resultType")) {
            result.put("resultType", "complete");
        }
        ObjectNode meta = result.has("_meta") ? (ObjectNode) result.get("_meta") : result.putObject("_meta");
        meta.putObject(META_SERVER_INFO).put("name", Catalog.SERVER_NAME).put("version", Catalog.SERVER_VERSION);
        if (CACHEABLE.contains(method) && result.get("resultType").asString().equals("complete")) {
            result.put("ttlMs", ttlMs(method)).put("cacheScope", "public");
        }
        return result;
    }

    /** Lists change only through the trigger tools (which announce it); the watched resource changes any time. */
    private static int ttlMs(String method) {
        return switch (method) {
            case "server/discover" -> 3_600_000;
            case "resources/read" -> 0;
            default -> 30_000;
        };
    }

    private static CallContext call(ObjectNode params, Exchange exchange) {
        ObjectNode meta = (ObjectNode) params.get("_meta");
        return new CallContext(Json.string(params, "name"), Json.objectOrEmpty(params.get("arguments")),
                params.get("inputResponses"), Json.string(params, "requestState"),
                (ObjectNode) meta.get(META_CAPABILITIES), meta.get("progressToken"),
                LogLevel.parse(Json.string(meta, META_LOG_LEVEL)), exchange);
    }

    /** A subscriptions/listen stream: acknowledgment first, then only the requested kinds of change. */
    private void listen(JsonNode id, ObjectNode params, Response response) throws InterruptedException {
        ObjectNode requested = Json.objectOrEmpty(params.get("notifications"));
        ObjectNode agreed = Json.object();
        for (String flag : List.of("toolsListChanged", "promptsListChanged", "resourcesListChanged")) {
            if (requested.path(flag).asBoolean(false)) {
                agreed.put(flag, true);
            }
        }
        ArrayNode uris = Json.array();
        for (JsonNode uri : requested.path("resourceSubscriptions")) {
            if (uri.isString()) {
                uris.add(uri.asString());
            }
        }
        if (!uris.isEmpty()) {
            agreed.set("resourceSubscriptions", uris);
        }
        SseWriter writer = new SseWriter(response);
        Consumer<Change> subscriber = change -> {
            ObjectNode notification = notificationFor(change, agreed, id);
            if (notification != null) {
                send(writer, notification);
            }
        };
        try {
            ObjectNode ack = subscriptionParams(id);
            ack.set("notifications", agreed);
            // Subscribed before the ack goes out (a change right after it must not be lost), while holding
            // the writer, so that no change can be written ahead of the ack.
            synchronized (writer) {
                catalog.changes().subscribe(subscriber);
                writer.event(null, null, Json.write(Json.notification("notifications/subscriptions/acknowledged", ack)));
            }
            while (!closing.await(KEEP_ALIVE_MS, TimeUnit.MILLISECONDS)) {
                writer.comment();
            }
            ObjectNode ended = Json.object().put("resultType", "complete");
            ended.putObject("_meta").set(META_SUBSCRIPTION, id);
            send(writer, Json.result(id, ended));
        } catch (IOException clientLeft) {
            // closing the stream is how a client cancels a subscription
        } finally {
            catalog.changes().unsubscribe(subscriber);
            writer.close();
        }
    }

    private static ObjectNode notificationFor(Change change, ObjectNode agreed, JsonNode subscriptionId) {
        String method = switch (change.kind()) {
            case TOOLS_LIST -> agreed.has("toolsListChanged") ? "notifications/tools/list_changed" : null;
            case PROMPTS_LIST -> agreed.has("promptsListChanged") ? "notifications/prompts/list_changed" : null;
            case RESOURCES_LIST -> agreed.has("resourcesListChanged") ? "notifications/resources/list_changed" : null;
            case RESOURCE_UPDATED -> subscribedTo(agreed, change.uri()) ? "notifications/resources/updated" : null;
        };
        if (method == null) {
            return null;
        }
        ObjectNode params = subscriptionParams(subscriptionId);
        if (change.uri() != null) {
            params.put("uri", change.uri());
        }
        return Json.notification(method, params);
    }

    private static boolean subscribedTo(ObjectNode agreed, String uri) {
        for (JsonNode subscribed : agreed.path("resourceSubscriptions")) {
            if (subscribed.asString().equals(uri)) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode subscriptionParams(JsonNode subscriptionId) {
        ObjectNode params = Json.object();
        params.putObject("_meta").set(META_SUBSCRIPTION, subscriptionId);
        return params;
    }

    private static void send(SseWriter writer, ObjectNode message) {
        try {
            writer.event(null, null, Json.write(message));
        } catch (IOException clientLeft) {
            // the keep-alive loop notices and ends the subscription
        }
    }

    private static void reject(Response response, JsonNode id, RpcError error) {
        Exchange.writeJson(response, error.httpStatus(), Json.error(id, error));
    }
}

package dev.mcpx.testkit.conformance;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.server.Response;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Streamable HTTP as of 2025-11-25: initialize mints an Mcp-Session-Id, requests may be
 * answered with resumable SSE streams carrying notifications and server-to-client requests,
 * GET opens a listen stream, DELETE ends the session, and a dead session is a 404.
 */
final class LegacyTransport {

    static final List<String> VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26");
    private static final long RESUME_TIMEOUT_MS = 30_000;

    private final Catalog catalog;
    private final Map<String, LegacySession> sessions = new ConcurrentHashMap<>();

    LegacyTransport(Catalog catalog) {
        this.catalog = catalog;
    }

    static boolean isLegacyVersion(String version) {
        return version != null && VERSIONS.contains(version.trim());
    }

    void initialize(JsonNode message, Response response) {
        JsonNode params = message.path("params");
        String requested = Json.string(params, "protocolVersion");
        String version = isLegacyVersion(requested) ? requested : VERSIONS.getFirst();
        LegacySession session = new LegacySession(Json.objectOrEmpty(params.get("capabilities")), catalog.changes());
        sessions.put(session.id(), session);
        ObjectNode result = Json.object().put("protocolVersion", version);
        result.set("capabilities", capabilities());
        result.putObject("serverInfo").put("name", Catalog.SERVER_NAME).put("version", Catalog.SERVER_VERSION);
        result.put("instructions", "Fixtures for the MCP conformance server scenarios.");
        response.getHeaders().put("Mcp-Session-Id", session.id());
        Exchange.writeJson(response, 200, Json.result(message.get("id"), result));
    }

    static ObjectNode capabilities() {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("tools").put("listChanged", true);
        capabilities.putObject("resources").put("subscribe", true).put("listChanged", true);
        capabilities.putObject("prompts").put("listChanged", true);
        capabilities.putObject("logging");
        capabilities.putObject("completions");
        return capabilities;
    }

    /** A POST carrying Mcp-Session-Id; versionHeader is MCP-Protocol-Version, which may be absent. */
    void post(String sessionId, String versionHeader, JsonNode message, Response response)
            throws InterruptedException {
        LegacySession session = sessions.get(sessionId);
        if (session == null) {
            sessionNotFound(response);
            return;
        }
        if (versionHeader != null && !isLegacyVersion(versionHeader)) {
            Exchange.writeJson(response, 400, Json.error(message.get("id"), RpcError.of(RpcError.INVALID_REQUEST,
                    "Unsupported MCP-Protocol-Version for a session: " + versionHeader)));
            return;
        }
        if (!message.isObject()) {
            Exchange.writeJson(response, 400, Json.error(null, RpcError.of(RpcError.INVALID_REQUEST,
                    "Batches are not supported")));
            return;
        }
        JsonNode id = message.get("id");
        String method = Json.string(message, "method");
        if (method == null) {
            session.answer(message);
            accepted(response);
            return;
        }
        if (id == null) {
            accepted(response);
            return;
        }
        Exchange exchange = Exchange.legacy(response, session);
        try {
            exchange.finish(Json.result(id, dispatch(session, method, Json.objectOrEmpty(message.get("params")), exchange)),
                    200);
        } catch (RpcError.RpcException failed) {
            exchange.finish(Json.error(id, failed.error()), 200);
        }
    }

    void get(String sessionId, String lastEventId, Response response) throws InterruptedException {
        LegacySession session = sessionId == null ? null : sessions.get(sessionId);
        if (sessionId == null) {
            Exchange.writeJson(response, 405, Json.error(null, RpcError.of(RpcError.INVALID_REQUEST,
                    "GET needs an Mcp-Session-Id (2025-11-25); 2026-07-28 has no GET stream")));
            return;
        }
        if (session == null) {
            sessionNotFound(response);
            return;
        }
        String streamId = ResumableStream.streamIdOf(lastEventId);
        ResumableStream stream = streamId == null ? null : session.stream(streamId);
        if (stream != null) {
            stream.resume(new SseWriter(response), lastEventId, RESUME_TIMEOUT_MS);
        } else {
            session.listen(new SseWriter(response));
        }
    }

    void delete(String sessionId, Response response) {
        LegacySession session = sessionId == null ? null : sessions.remove(sessionId);
        if (session == null) {
            sessionNotFound(response);
            return;
        }
        session.close();
        Exchange.writeEmpty(response, 200);
    }

    void closeAll() {
        sessions.values().forEach(LegacySession::close);
        sessions.clear();
    }

    private ObjectNode dispatch(LegacySession session, String method, ObjectNode params, Exchange exchange)
            throws InterruptedException {
        switch (method) {
            case "ping":
                return Json.object();
            case "tools/list":
                return catalog.tools().list();
            case "tools/call":
                return FixtureRunner.runLegacy(catalog.tools().fixture(Json.string(params, "name")),
                        call(session, params, exchange));
            case "prompts/list":
                return catalog.prompts().list();
            case "prompts/get":
                return FixtureRunner.runLegacy(catalog.prompts().fixture(Json.string(params, "name")),
                        call(session, params, exchange));
            case "resources/list":
                return catalog.resources().list();
            case "resources/templates/list":
                return catalog.resources().templates();
            case "resources/read":
                return catalog.resources().read(Json.string(params, "uri"), false);
            case "resources/subscribe":
                session.subscribe(requireUri(params));
                return Json.object();
            case "resources/unsubscribe":
                session.unsubscribe(requireUri(params));
                return Json.object();
            case "logging/setLevel":
                LogLevel level = LogLevel.parse(Json.string(params, "level"));
                if (level == null) {
                    throw RpcError.of(RpcError.INVALID_PARAMS, "Unknown log level").exception();
                }
                session.setLogLevel(level);
                return Json.object();
            case "completion/complete":
                return Completions.complete(params);
            default:
                throw RpcError.of(RpcError.METHOD_NOT_FOUND, "Method not found: " + method).exception();
        }
    }

    private static CallContext call(LegacySession session, ObjectNode params, Exchange exchange) {
        JsonNode meta = params.path("_meta");
        return new CallContext(Json.string(params, "name"), Json.objectOrEmpty(params.get("arguments")),
                params.get("inputResponses"), Json.string(params, "requestState"), session.clientCapabilities(),
                meta.get("progressToken"), session.logLevel(), exchange);
    }

    private static String requireUri(ObjectNode params) {
        String uri = Json.string(params, "uri");
        if (uri == null) {
            throw RpcError.of(RpcError.INVALID_PARAMS, "params.uri is required").exception();
        }
        return uri;
    }

    private static void accepted(Response response) {
        Exchange.writeEmpty(response, 202);
    }

    private static void sessionNotFound(Response response) {
        Exchange.writeJson(response, 404, Json.error(null, RpcError.of(-32001, "Session not found")));
    }
}

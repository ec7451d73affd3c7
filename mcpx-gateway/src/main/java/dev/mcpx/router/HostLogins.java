package dev.mcpx.router;

import dev.mcpx.pool.Upstream;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.NeedsLoginException;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The login an upstream needs, offered to the host that calls it through URL-mode elicitation,
 * so a host's user never has to open a terminal. mcpx runs the authorization code flow as
 * {@code mcpx login} does ({@link LoginFlow}) and hands the host the authorization URL, nothing
 * else; the host shows it, the user approves in a browser, the redirect comes back to mcpx's
 * loopback listener, and the upstream connects with the new tokens. One flow per upstream at a
 * time, shared by every host that calls meanwhile; a flow that ends without a login leaves the
 * upstream waiting for one, and the next call starts a new flow.
 *
 * <p>A legacy host (2025-11-25) is answered -32042 with the elicitation, and told
 * {@code notifications/elicitation/complete} once the upstream is up, when it retries. A modern
 * host (2026-07-28) is answered an InputRequiredResult whose {@code elicitation/create} is in URL
 * mode; its retry, with the user's accept, waits for the flow and then goes to the upstream. A
 * host that did not declare URL-mode elicitation gets the needs-login error as before.
 */
final class HostLogins {

    /** The key of mcpx's request among a modern host's input requests and responses. */
    static final String INPUT_KEY = "mcpx-login";
    private static final String STATE_PREFIX = "mcpx-login.";
    /** Discovery and client registration before the URL is known. */
    private static final Duration URL_WAIT = Duration.ofSeconds(30);

    private final Duration timeout;
    private final Map<String, LoginFlow> byUpstream = new HashMap<>();
    private final Map<String, LoginFlow> byId = new ConcurrentHashMap<>();

    /** {@code timeout}: how long a flow waits for its user, as {@code mcpx login} does. */
    HostLogins(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * A modern host's retry of a call it was offered a login on: waits for that login (its flow's
     * timeout bounds the wait), and returns the call without mcpx's round in it. Any other call
     * is returned as it is.
     */
    HostCall resume(HostCall call) {
        ObjectNode params = call.params();
        if (call.hostEra() != Era.MODERN || params == null || !(params.get("requestState") instanceof JsonNode state)
                || !state.isString() || !state.asString().startsWith(STATE_PREFIX)) {
            return call;
        }
        ObjectNode stripped = params.deepCopy();
        stripped.remove("requestState");
        JsonNode responses = stripped.remove("inputResponses");
        LoginFlow flow = byId.get(state.asString().substring(STATE_PREFIX.length()));
        String action = responses == null ? "" : responses.path(INPUT_KEY).path("action").asString("");
        if (!"accept".equals(action)) {
            String upstream = flow == null ? "the upstream" : flow.upstream.name();
            throw new NeedsLoginException("the login to " + upstream + " was not accepted (" + (action.isEmpty()
                    ? "no answer" : action) + "); call again to be offered it"
                    + (flow == null ? "" : ", or run `mcpx login " + upstream + "`"), null);
        }
        if (flow != null) {
            // an unknown flow (ended, or another process's) leaves the call to go as it is: offered again if still needed
            flow.awaitEnd(call.cancellation());
        }
        return call.withParams(stripped);
    }

    /**
     * {@code upstream} refused {@code call} for want of a login ({@code refusal}): the answer
     * that offers it to the host, or {@code retry}'s when the login needed no user after all.
     *
     * @throws McpException {@code refusal} when the host cannot be offered it; the legacy
     *                      host's -32042
     */
    JsonNode offer(HostCall call, Upstream upstream, McpException refusal, Supplier<JsonNode> retry) {
        if (!offerable(call, upstream)) {
            throw refusal;
        }
        LoginFlow flow = join(upstream);
        return switch (flow.awaitStage(URL_WAIT, call.cancellation())) {
            case LoginFlow.Stage.LoggedIn loggedIn -> retry.get();
            case LoginFlow.Stage.Failed failed -> throw new NeedsLoginException(upstream.name() + ": " + failed.why()
                    + (failed.why().contains("mcpx login") ? "" : "; run `mcpx login " + upstream.name() + "`"), null);
            case LoginFlow.Stage.Offer offer -> {
                if (call.hostEra() != Era.MODERN) {
                    throw elicitationRequired(call, flow, offer);
                }
                yield inputRequired(flow, offer);
            }
        };
    }

    /** URL-mode declared by the host, an interactive OAuth upstream, and a request a modern host may be asked input on. */
    private static boolean offerable(HostCall call, Upstream upstream) {
        boolean urlMode = call.hostEra() != null && call.hostCapabilities() != null
                && call.hostCapabilities().path("elicitation").get("url") instanceof ObjectNode;
        boolean interactive = upstream.config().oauth() != null && !upstream.config().oauth().grant().unattended()
                && upstream.config().endpoint() instanceof UpstreamEndpoint.Http;
        return urlMode && interactive && (call.hostEra() == Era.LEGACY || HeldCalls.BRIDGED.contains(call.method()));
    }

    /** The running flow of {@code upstream}, or a new one. */
    private LoginFlow join(Upstream upstream) {
        synchronized (byUpstream) {
            LoginFlow running = byUpstream.get(upstream.name());
            if (running != null && !running.finished()) {
                return running;
            }
            LoginFlow fresh = new LoginFlow(upstream);
            byUpstream.put(upstream.name(), fresh);
            byId.put(fresh.id, fresh);
            Thread.ofVirtual().name("mcpx-login-" + upstream.name()).start(() -> {
                try {
                    fresh.run(timeout);
                } finally {
                    synchronized (byUpstream) {
                        byUpstream.remove(upstream.name(), fresh);
                    }
                    byId.remove(fresh.id, fresh);
                }
            });
            return fresh;
        }
    }

    private static String message(LoginFlow flow) {
        return "Log in to " + flow.upstream.name() + " so mcpx can use its tools: open this URL and approve.";
    }

    private static ObjectNode inputRequired(LoginFlow flow, LoginFlow.Stage.Offer offer) {
        ObjectNode result = Json.object().put("resultType", "input_required");
        ObjectNode ask = result.putObject("inputRequests").putObject(INPUT_KEY).put("method", Methods.ELICITATION_CREATE);
        ask.putObject("params").put("mode", "url").put("url", offer.authorizationUrl().toString()).put("message", message(flow));
        result.put("requestState", STATE_PREFIX + flow.id);
        return result;
    }

    private static McpErrorException elicitationRequired(HostCall call, LoginFlow flow, LoginFlow.Stage.Offer offer) {
        if (call.hostNotices() != null) {
            ObjectNode done = Json.object().put("elicitationId", flow.id);
            flow.whenLoggedIn(() -> call.hostNotices().accept(new Notification(Methods.ELICITATION_COMPLETE, done)));
        }
        ObjectNode data = Json.object();
        data.putArray("elicitations").addObject().put("mode", "url").put("elicitationId", flow.id)
                .put("url", offer.authorizationUrl().toString()).put("message", message(flow));
        return new McpErrorException(new JsonRpcError(ErrorCodes.URL_ELICITATION_REQUIRED, "upstream \""
                + flow.upstream.name() + "\" needs a login: open the URL, approve, then call again", data));
    }
}

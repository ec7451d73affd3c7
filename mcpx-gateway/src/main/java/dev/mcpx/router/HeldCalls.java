package dev.mcpx.router;

import dev.mcpx.client.RecoveryTaken;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.pool.Upstream;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.Methods;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The bridge from a modern host to a legacy upstream: the upstream asks with server->client
 * requests during the call, the host answers through MRTR. Each call waiting for its host's
 * retry is held here under an unguessable {@code requestState}, used once, for at most
 * {@link Limits#expiry}, and never more than {@link Limits#max} at a time.
 */
public final class HeldCalls {

    /**
     * How long a held call waits for its host's retry, how many may wait at once, and how often
     * a host request waiting on one looks whether its host cancelled (the upstream's result and
     * asks wake it at once).
     */
    public record Limits(Duration expiry, int max, Duration cancelPoll) {
        public static final Limits DEFAULT = new Limits(Duration.ofMinutes(5), 1_000);

        public Limits(Duration expiry, int max) {
            this(expiry, max, Duration.ofMillis(100));
        }
    }

    /** The requests 2026-07-28 lets a server answer with an InputRequiredResult. */
    static final Set<String> BRIDGED = Set.of(Methods.TOOLS_CALL, Methods.PROMPTS_GET, Methods.RESOURCES_READ);

    private final Limits limits;
    private final Map<String, HeldCall> held = new ConcurrentHashMap<>();
    /** Names this process in its tokens, so a token another replica (or an earlier run) issued is told apart. */
    private final String issuer;
    private volatile HeldCallRelay relay = HeldCallRelay.ALONE;

    public HeldCalls(Limits limits) {
        this.limits = limits;
        // a name, not a secret (the token's secret part is): no SecureRandom, whose providers cost a gateway's start 14 ms
        byte[] bytes = new byte[6];
        ThreadLocalRandom.current().nextBytes(bytes);
        this.issuer = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * Retries of calls another process holds are forwarded through {@code relay}, and those other
     * processes forward here are answered by {@code holder}.
     */
    void relayThrough(HeldCallRelay relay, HeldCallRelay.Holder holder) {
        this.relay = relay;
        relay.serve(issuer, holder);
    }

    /** Calls waiting for their host's retry now. */
    public int size() {
        return held.size();
    }

    /**
     * The host's request on {@code upstream}: a first call starts the upstream call; a retry
     * (its {@code requestState} one this gateway minted) delivers its {@code inputResponses}.
     * Either way the answer is the final result or the next round's InputRequiredResult.
     */
    JsonNode route(HostCall call, Upstream upstream, ObjectNode upstreamRequest, Consumer<RecoveryTaken> recoveries) {
        JsonNode state = upstreamRequest.remove("requestState");
        JsonNode responses = upstreamRequest.remove("inputResponses");
        String target = target(upstreamRequest);
        if (state == null) {
            HeldCall fresh = new HeldCall(call.method(), target, limits.expiry(), limits.cancelPoll(), call);
            fresh.startUpstream(self -> upstream.request(call.method(), upstreamRequest, RequestOptions.defaults()
                    .withCancellation(self.upstreamCancellation()).withServerRequests(self.upstreamAsks())
                    .withProgress(self::progress).withLogs(self::log).withRecoveries(recoveries)));
            return fresh.awaitTurn(call, this::hold);
        }
        if (responses != null && !(responses instanceof ObjectNode)) {
            throw invalidParams("inputResponses must be an object");
        }
        HeldCall resumed = state.isString() ? held.get(state.asString()) : null;
        String elsewhere = resumed == null && state.isString() ? issuerElsewhere(state.asString()) : null;
        if (elsewhere != null && relay.reaches()) {
            return relay.forward(elsewhere, call.method(), call.params(), call.hostCapabilities());
        }
        if (elsewhere != null) {
            throw invalidParams("requestState was issued by another mcpx process (another replica behind the same "
                    + "load balancer, or this one before a restart), and a held call lives only in the process that "
                    + "started it: send the " + call.method() + " again without requestState");
        }
        if (resumed == null) {
            throw invalidParams("requestState is not one mcpx issued, or it expired or was already used");
        }
        if (!resumed.matches(call.method(), target)) {
            throw invalidParams("requestState belongs to another request: retry the same " + call.method() + " it came with");
        }
        if (!held.remove(state.asString(), resumed)) {
            throw invalidParams("requestState is not one mcpx issued, or it expired or was already used");
        }
        resumed.deliver((ObjectNode) responses);
        return resumed.awaitTurn(call, this::hold);
    }

    /** Holds {@code call} under a new token until its host retries or it expires; null when full. */
    private synchronized String hold(HeldCall call) {
        if (held.size() >= limits.max()) {
            return null;
        }
        byte[] bytes = new byte[32];
        Secrets.RANDOM.nextBytes(bytes);
        String token = TOKEN_PREFIX + issuer + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        held.put(token, call);
        Thread.ofVirtual().name("mcpx-held-expiry").start(() -> {
            try {
                Thread.sleep(limits.expiry());
            } catch (InterruptedException e) {
                return;
            }
            if (held.remove(token, call)) {
                call.expire(limits.expiry());
            }
        });
        return token;
    }

    private static final String TOKEN_PREFIX = "mcpx-held.";

    /** The other process named in a token shaped as this gateway's are; null when it is not one. */
    private String issuerElsewhere(String token) {
        if (!token.startsWith(TOKEN_PREFIX)) {
            return null;
        }
        String[] parts = token.substring(TOKEN_PREFIX.length()).split("\\.", -1);
        boolean elsewhere = parts.length == 2 && parts[0].length() == issuer.length() && !parts[0].equals(issuer)
                && parts[1].length() == 43;
        return elsewhere ? parts[0] : null;
    }

    private static String target(ObjectNode upstreamRequest) {
        String name = Json.text(upstreamRequest, "name");
        return name != null ? name : String.valueOf(Json.text(upstreamRequest, "uri"));
    }

    private static McpErrorException invalidParams(String message) {
        return new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, message));
    }

    /** Made at the first held call, not at every gateway's start. */
    private static final class Secrets {
        static final SecureRandom RANDOM = new SecureRandom();
    }
}

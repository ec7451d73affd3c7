package dev.mcpx.testkit.modern;

import dev.mcpx.testkit.chaos.SilentCloses;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An in-process, stateless 2026-07-28 MCP server on 127.0.0.1 (Jetty core, one POST endpoint
 * at {@code /mcp}) that checks everything a modern client must get right and fails on purpose
 * when told to.
 *
 * <p>It rejects requests without the modern {@code _meta} (400, -32602), validates the headers
 * against the body (400, -32020, counted in {@link #headerMismatches()}), answers unknown
 * versions with -32022 and {@code data.supported}, and GET or DELETE with 405. It offers
 * {@code read_only_tool}, {@code idempotent_tool}, {@code destructive_tool}, {@code plain_tool},
 * {@code header_tool} (valid {@code x-mcp-header} params), {@code invalid_header_tool} (one
 * inside {@code items}) and {@code mrtr_tool} (input_required, then complete); two resources,
 * one prompt, list results with {@code ttlMs}/{@code cacheScope}, and {@code subscriptions/listen}.
 * {@link #breakStream} makes a tool's or resource's next responses end before the response,
 * after the tool has run; keyed by method, the same for the tasks extension's {@code tasks/get},
 * {@code tasks/update} and {@code tasks/cancel}, which it answers as for one completed task. A tools/call whose arguments carry {@code "chaos": "duplicate"} gets its
 * response event twice; {@code "chaos": "unknown-id"} gets a response to an id never sent first.
 */
public final class ModernHttpUpstream implements AutoCloseable {

    public static final String LATEST = "2026-07-28";

    /** A canned answer to the next request, whatever it is. */
    record CannedAnswer(int status, String contentType, String body) {
    }

    record Breakage(int remaining, BreakMode mode) {
    }

    final FakeCatalogue catalogue = new FakeCatalogue();
    final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final Map<String, Breakage> breakages = new ConcurrentHashMap<>();
    final Map<String, Duration> delays = new ConcurrentHashMap<>();
    final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();
    final List<String> violations = new CopyOnWriteArrayList<>();
    final List<String> mismatches = new CopyOnWriteArrayList<>();
    final Set<ListenStream> listeners = ConcurrentHashMap.newKeySet();
    final Queue<CannedAnswer> canned = new ConcurrentLinkedQueue<>();
    volatile List<String> supportedVersions = List.of(LATEST);
    volatile long ttlMs = 60_000;
    volatile boolean sseForEverything;
    volatile boolean refuseListen;
    volatile String authorizationServer;
    /** DPoP-bound tokens only, and the nonce proofs must carry (null: none asked for). */
    volatile boolean dpop;
    volatile String dpopNonce;
    volatile boolean dpopNonceRotates;
    volatile boolean dpopNonceRotatesOnSuccess;
    private final BearerGate gate;
    final Set<String> declinedResources = ConcurrentHashMap.newKeySet();
    final Map<String, AtomicInteger> versionRefusals = new ConcurrentHashMap<>();
    final SilentCloses silentCloses = new SilentCloses();

    private final Server server;
    private final URI url;

    private ModernHttpUpstream(int port) throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("modern-upstream");
        threads.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server = new Server(threads);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        connector.setReuseAddress(true);
        server.addConnector(connector);
        gate = new BearerGate(this, new ModernHandler(this));
        server.setHandler(gate);
        try {
            server.start();
        } catch (Exception e) {
            server.stop();
            throw e;
        }
        url = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
    }

    /** Starts a fresh upstream on an ephemeral port. */
    public static ModernHttpUpstream start() {
        try {
            return new ModernHttpUpstream(0);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the modern test upstream", e);
        }
    }

    /**
     * Starts on {@code port}, which a stopped server (of either era) just released: an upstream
     * redeployed on the same address. Binding is retried while the old server finishes closing.
     */
    public static ModernHttpUpstream startOn(int port) {
        for (int attempt = 1; ; attempt++) {
            try {
                return new ModernHttpUpstream(port);
            } catch (Exception e) {
                if (attempt == 30) {
                    throw new IllegalStateException("cannot start the modern test upstream on port " + port, e);
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while starting on port " + port, e);
                }
            }
        }
    }

    public int port() {
        return url.getPort();
    }

    /**
     * Makes it an OAuth-protected resource whose tokens {@code issuer} grants: requests without
     * a live bearer JWT get 401 with a challenge naming its resource metadata.
     */
    public ModernHttpUpstream requireBearer(URI issuer) {
        authorizationServer = issuer.toString();
        return this;
    }

    /**
     * Makes it a resource that takes only DPoP-bound tokens (RFC 9449): {@code Authorization: DPoP},
     * a valid proof per request whose key is the token's {@code cnf.jkt}, and, when {@code nonce}
     * is given, that nonce in the proof (else 401 {@code use_dpop_nonce} with it).
     */
    public ModernHttpUpstream requireDpop(URI issuer, String nonce) {
        dpop = true;
        dpopNonce = nonce;
        authorizationServer = issuer.toString();
        return this;
    }

    /** Every nonce it asks for is a new one, so a proof never carries the current nonce (a server that misbehaves). */
    public ModernHttpUpstream rotateDpopNonce() {
        dpopNonceRotates = true;
        return this;
    }

    /**
     * Every request it accepts is answered with a new {@code DPoP-Nonce} (RFC 9449 section 8.2), which
     * the next proof must carry: a client that reads nonces only from refusals is refused each time.
     */
    public ModernHttpUpstream rotateDpopNonceOnSuccess() {
        dpopNonceRotatesOnSuccess = true;
        return this;
    }

    /** How many requests it asked for its DPoP nonce. */
    public int dpopNonceChallenges() {
        return gate.nonceChallenges.get();
    }

    /** What was wrong with the DPoP proofs it refused, in order. */
    public List<String> dpopProblems() {
        return List.copyOf(gate.proofProblems);
    }

    /** Every token it has been sent so far expires now (their holders must refresh). */
    public ModernHttpUpstream expireTokensSeen() {
        gate.expired.addAll(gate.seen);
        return this;
    }

    /** How many requests it refused for their missing or expired token. */
    public int unauthorized() {
        return gate.refused.get();
    }

    /** The MCP endpoint. */
    public URI url() {
        return url;
    }

    /** The protocol versions this upstream accepts (default: 2026-07-28 only). */
    public ModernHttpUpstream supportedVersions(String... versions) {
        supportedVersions = List.of(versions);
        return this;
    }

    /** The {@code ttlMs} of cacheable results (default one minute). */
    public ModernHttpUpstream ttlMs(long millis) {
        ttlMs = millis;
        return this;
    }

    /** Answer every request with an SSE stream (default: only tools/call). */
    public ModernHttpUpstream sseForEverything(boolean on) {
        sseForEverything = on;
        return this;
    }

    /**
     * The next {@code times} responses for {@code name} (a tool or prompt name, or a resource
     * URI) are SSE streams that close before the response, after the tool has run.
     */
    public ModernHttpUpstream breakStream(String name, int times) {
        return breakStream(name, times, BreakMode.ABORT);
    }

    public ModernHttpUpstream breakStream(String name, int times, BreakMode mode) {
        breakages.put(name, new Breakage(times, mode));
        return this;
    }

    /**
     * Refuse the next {@code times} {@code rpcMethod} requests with -32022 although their version
     * is supported, listing the supported versions, as the conformance suite's request-metadata
     * mock does.
     */
    public ModernHttpUpstream refuseVersion(String rpcMethod, int times) {
        versionRefusals.put(rpcMethod, new AtomicInteger(times));
        return this;
    }

    boolean takeVersionRefusal(String rpcMethod) {
        AtomicInteger left = versionRefusals.get(rpcMethod);
        return left != null && left.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    /**
     * The next {@code times} POSTs for {@code name} (a tool name; else the JSON-RPC method, such
     * as {@code tools/list} or {@code server/discover}) are read and their connection is closed
     * without one byte of response: before they run, or after they ran.
     */
    public ModernHttpUpstream closeWithoutAnswer(String name, int times, SilentCloses.When when) {
        silentCloses.arm(name, times, when);
        return this;
    }

    /** The requests closed without an answer so far, and on which kind of connection. */
    public SilentCloses silentCloses() {
        return silentCloses;
    }

    /** Answer {@code subscriptions/listen} with 404 and -32601, as a server without subscriptions does. */
    public ModernHttpUpstream refuseListen(boolean on) {
        refuseListen = on;
        return this;
    }

    /** Leave {@code uri} out of every listen acknowledgment (and send no updates of it): a server that cannot watch it. */
    public ModernHttpUpstream declineResource(String uri) {
        declinedResources.add(uri);
        return this;
    }

    /** How many {@code subscriptions/listen} requests arrived, refused ones included. */
    public int listenRequests() {
        return (int) requests.stream().filter(r -> "subscriptions/listen".equals(r.rpcMethod())).count();
    }

    /** Tool, prompt or resource {@code name} (or a method without a name, like server/discover) takes this long. */
    public ModernHttpUpstream delay(String name, Duration duration) {
        delays.put(name, duration);
        return this;
    }

    /** The next request, whatever it is, gets exactly this answer, unvalidated and unexecuted. */
    public ModernHttpUpstream answerNextWith(int status, String contentType, String body) {
        canned.add(new CannedAnswer(status, contentType, body));
        return this;
    }

    /**
     * Adds or replaces a tool that echoes its arguments; {@code definitionJson} is a tool
     * definition as {@code tools/list} lists it.
     */
    public ModernHttpUpstream putEchoTool(String definitionJson) {
        ObjectNode definition = (ObjectNode) FakeCatalogue.JSON.readTree(definitionJson);
        catalogue.put(new FakeCatalogue.Tool(definition, FakeCatalogue::echo));
        return this;
    }

    /**
     * Adds a tool that answers every call with a task of the tasks extension, opted in or not (an
     * upstream handing out tasks unsolicited); {@code tasks/get} then reports it completed.
     */
    public ModernHttpUpstream putTaskTool(String name) {
        ObjectNode definition = FakeCatalogue.parse("{'name': '" + name + "', 'description': 'Answers with a task',"
                + " 'inputSchema': {'type': 'object', 'properties': {}}}");
        catalogue.put(new FakeCatalogue.Tool(definition, (params, execution) -> FakeCatalogue.parse(
                "{'resultType': 'task', 'taskId': 'task-" + execution + "', 'status': 'working',"
                        + " 'createdAt': '2026-07-28T00:00:00Z', 'lastUpdatedAt': '2026-07-28T00:00:00Z',"
                        + " 'ttlMs': 60000, 'pollIntervalMs': 50}")));
        return this;
    }

    /** Sends {@code notifications/tools/list_changed} on every listen stream that asked for it. */
    public void pushToolsListChanged() {
        listeners.stream().filter(l -> l.toolsListChanged)
                .forEach(l -> l.notify("notifications/tools/list_changed", null));
    }

    /** Sends {@code notifications/resources/updated} on every listen stream subscribed to {@code uri}. */
    public void pushResourceUpdated(String uri) {
        ObjectNode params = FakeCatalogue.JSON.createObjectNode();
        params.put("uri", uri);
        listeners.stream().filter(l -> l.resourceSubscriptions.contains(uri))
                .forEach(l -> l.notify("notifications/resources/updated", params));
    }

    /** Ends every listen stream: gracefully (a completion result first) or by aborting it. */
    public void endSubscriptions(boolean graceful) {
        listeners.forEach(l -> l.end(graceful ? ListenStream.Ending.GRACEFUL : ListenStream.Ending.ABORT));
    }

    /** How many listen streams are open now. */
    public int openSubscriptions() {
        return listeners.size();
    }

    /** How many times the tool (or resource URI, or prompt) {@code name} was executed. */
    public int executions(String name) {
        AtomicInteger count = executions.get(name);
        return count == null ? 0 : count.get();
    }

    /** How many valid requests for {@code rpcMethod} reached the dispatcher. */
    public int calls(String rpcMethod) {
        AtomicInteger count = calls.get(rpcMethod);
        return count == null ? 0 : count.get();
    }

    /** Every HTTP request received, in order. */
    public List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    /** The JSON-RPC ids of the requests for tool, prompt or resource {@code name}, in order. */
    public List<JsonNode> requestIds(String name) {
        List<JsonNode> ids = new ArrayList<>();
        for (RecordedRequest r : requests) {
            if (name.equals(r.name())) {
                ids.add(r.id());
            }
        }
        return ids;
    }

    /** How many requests were rejected with -32020 because headers and body disagreed. */
    public int headerMismatches() {
        return mismatches.size();
    }

    /** What each header mismatch was. */
    public List<String> mismatchReasons() {
        return List.copyOf(mismatches);
    }

    /**
     * Things a modern client must never do, each described once per occurrence: GET, DELETE,
     * {@code Mcp-Session-Id}, {@code Last-Event-ID}, an Accept header without both media types.
     */
    public List<String> violations() {
        return List.copyOf(violations);
    }

    int nextExecution(String name) {
        return executions.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    }

    /** Consumes one breakage of {@code name}, if any is left. */
    BreakMode takeBreakage(String name) {
        if (name == null) {
            return null;
        }
        Breakage[] taken = new Breakage[1];
        breakages.computeIfPresent(name, (k, b) -> {
            taken[0] = b;
            return b.remaining() <= 1 ? null : new Breakage(b.remaining() - 1, b.mode());
        });
        return taken[0] == null || taken[0].remaining() <= 0 ? null : taken[0].mode();
    }

    @Override
    public void close() {
        endSubscriptions(false);
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the modern test upstream", e);
        }
    }
}

package dev.mcpx.testkit.legacy;

import dev.mcpx.testkit.chaos.SilentCloses;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * An in-process legacy MCP server (protocol 2025-11-25, Streamable HTTP with sessions) on
 * 127.0.0.1, at {@code /mcp}, that fails on purpose: it forgets its sessions, restarts on the
 * same port, cuts SSE streams before the response and replays them on {@code Last-Event-ID}.
 * Everything it saw is recorded for assertions.
 */
public final class LegacyHttpUpstream implements AutoCloseable {

    /** How a request is answered: one JSON object, or an SSE stream. */
    public enum ResponseMode { JSON, SSE }

    /** How a request with an unknown session id is answered. */
    public enum SessionLossAnswer {
        /** HTTP 404, as the spec says. */
        NOT_FOUND,
        /** HTTP 400 {@code Bad Request: No valid session ID provided}, as the reference server says. */
        BAD_REQUEST
    }

    static final Set<String> SUPPORTED_VERSIONS = Set.of("2025-03-26", "2025-06-18", "2025-11-25");

    private final Map<String, FakeSession> sessions = new ConcurrentHashMap<>();
    private final FakeCatalogue catalogue = new FakeCatalogue();
    private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();
    private final List<Long> cutTimes = new CopyOnWriteArrayList<>();
    private final AtomicInteger initializeCount = new AtomicInteger();
    private final AtomicInteger cutsLeft = new AtomicInteger();
    private final AtomicInteger listenConnections = new AtomicInteger();
    private final SilentCloses silentCloses = new SilentCloses();
    private volatile long cutRetryMillis = -1;
    private volatile ResponseMode responseMode = ResponseMode.JSON;
    private volatile SessionLossAnswer sessionLossAnswer = SessionLossAnswer.NOT_FOUND;
    private volatile boolean listenStreamEnabled = true;
    private volatile boolean offersSubscriptions = true;
    private volatile boolean rejectEverySession;
    private volatile boolean acceptUnknownSessions;
    private volatile boolean refuseInitialize;
    private volatile long initializeDelayMillis;
    private volatile long listenAnswerDelayMillis;
    private volatile boolean replayOnResume = true;
    private volatile boolean running;
    private Server server;
    private int port;

    /** A fake upstream ready to {@link #start()}. */
    public LegacyHttpUpstream() {
    }

    /** A fake already listening on an ephemeral port. */
    public static LegacyHttpUpstream started() {
        LegacyHttpUpstream upstream = new LegacyHttpUpstream();
        upstream.start();
        return upstream;
    }

    /**
     * A fake listening on {@code port}, which a stopped server (of either era) just released: an
     * upstream redeployed on the same address.
     */
    public static LegacyHttpUpstream startedOn(int port) {
        LegacyHttpUpstream upstream = new LegacyHttpUpstream();
        upstream.port = port;
        upstream.start();
        return upstream;
    }

    /** The MCP endpoint. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + port + "/mcp");
    }

    public int port() {
        return port;
    }

    /** Stops the server: connections close, every session is gone. Counters survive. */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        running = false;
        endAllSessions();
        try {
            server.stop();
        } catch (Exception graceful) {
            // an exchange still in flight outlived the graceful wait: stop at once, as a crash would
            server.setStopTimeout(0);
            try {
                server.stop();
            } catch (Exception e) {
                throw new IllegalStateException("could not stop the fake upstream", e);
            }
        }
        server = null;
    }

    /** Starts listening: first on an ephemeral port, after a {@link #stop()} on the same port again. */
    public synchronized void start() {
        if (server == null) {
            startOn(port);
        }
    }

    /** Stops and starts on the same port with no sessions: what a restarted server looks like. */
    public synchronized void restart() {
        stop();
        start();
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * Starts listening on {@code wantedPort}, which a stopped server may just have released (the
     * bind is retried while its close finishes): for a fake configured before it serves anything.
     */
    public synchronized void startOn(int wantedPort) {
        SamePortBind.bind(wantedPort, this::bind);
    }

    private void bind(int wantedPort) {
        VirtualThreadPool threads = new VirtualThreadPool();
        threads.setName("legacy-upstream");
        Server s = new Server(threads);
        // no acceptor thread: the selector accepts, and is stopped before stop returns; an acceptor
        // thread could still be in accept when it did, and took a connection nobody then read or
        // closed, on which a client's request waited out its timeout
        ServerConnector connector = new ServerConnector(s, 0, 1);
        connector.setHost("127.0.0.1");
        connector.setPort(wantedPort);
        connector.setReuseAddress(true);
        s.addConnector(connector);
        s.setHandler(new StreamableHandler(this));
        // No graceful wait: a stop is a crash or a restart, and requests in flight die with it.
        s.setStopTimeout(0);
        running = true;
        try {
            s.start();
        } catch (Exception e) {
            running = false;
            throw new IllegalStateException("could not start the fake upstream on port " + wantedPort, e);
        }
        server = s;
        port = connector.getLocalPort();
    }


    public LegacyHttpUpstream responseMode(ResponseMode mode) {
        this.responseMode = Objects.requireNonNull(mode);
        return this;
    }

    public LegacyHttpUpstream sessionLossAnswer(SessionLossAnswer answer) {
        this.sessionLossAnswer = Objects.requireNonNull(answer);
        return this;
    }

    /** When disabled, a GET without {@code Last-Event-ID} is answered 405 (no listen stream offered). */
    public LegacyHttpUpstream listenStream(boolean enabled) {
        this.listenStreamEnabled = enabled;
        return this;
    }

    /** When off, {@code resources.subscribe} is not advertised and resources/(un)subscribe get -32601. */
    public LegacyHttpUpstream offerSubscriptions(boolean on) {
        this.offersSubscriptions = on;
        return this;
    }

    /**
     * Sends {@code notifications/resources/updated} for {@code uri} on the listen stream of every
     * session subscribed to it; returns how many sessions that was.
     */
    public int notifyResourceUpdated(String uri) {
        String message = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\""
                + uri + "\"}}";
        int told = 0;
        for (FakeSession session : sessions.values()) {
            EventLog listen = session.listenStreamIfOpen();
            if (listen != null && session.subscriptions().contains(uri)) {
                listen.append(message);
                told++;
            }
        }
        return told;
    }

    /** The URIs each live session is subscribed to, by session id. */
    public Map<String, Set<String>> subscriptions() {
        Map<String, Set<String>> all = new java.util.HashMap<>();
        sessions.forEach((id, session) -> all.put(id, Set.copyOf(session.subscriptions())));
        return all;
    }

    /**
     * When on, a request or GET with a session id this server never issued is served as if it had
     * (in a session made for it), as the TypeScript SDK v2 server does in its default mode: a
     * client of the server this one replaced on the same URL never hears that its session is gone.
     */
    public LegacyHttpUpstream acceptUnknownSessions(boolean on) {
        this.acceptUnknownSessions = on;
        return this;
    }

    /** Leaves these tools out of {@code tools/list} and answers their calls "Unknown tool" (-32602). */
    public LegacyHttpUpstream withoutTools(String... tools) {
        catalogue.hide(Set.of(tools));
        return this;
    }

    /** The live session {@code id}, or (with {@link #acceptUnknownSessions}) one made for it. */
    FakeSession session(String id) {
        FakeSession known = sessions.get(id);
        if (known != null || !acceptUnknownSessions) {
            return known;
        }
        return sessions.computeIfAbsent(id, unknown -> new FakeSession(unknown, "2025-11-25"));
    }

    /** Forgets every session, as a restart would, but keeps the port and connections open. */
    public void forgetSessions() {
        endAllSessions();
    }

    /**
     * From now on every JSON-RPC request and GET that carries a session id is answered as a lost
     * session ({@link #sessionLossAnswer}: 404, or 400 naming the session), while
     * {@code initialize} still creates sessions and notifications are still accepted: a server
     * that keeps handing out sessions it then refuses, as one behind a load balancer without
     * session affinity does.
     */
    public void rejectEverySession(boolean on) {
        this.rejectEverySession = on;
    }

    /** {@code initialize} is answered only after this long: a server that is slow to start. */
    /** A slow server: a listen GET gets its status line only after {@code delay}. */
    public LegacyHttpUpstream listenAnswerDelay(java.time.Duration delay) {
        this.listenAnswerDelayMillis = delay.toMillis();
        return this;
    }

    public void initializeDelay(java.time.Duration delay) {
        this.initializeDelayMillis = delay.toMillis();
    }

    /** When on, {@code initialize} itself gets 404 (and no session), like a server gone wrong. */
    public void refuseInitialize(boolean on) {
        this.refuseInitialize = on;
    }

    /**
     * The next {@code count} SSE response streams end right after their priming event (which
     * carries {@code retry: retryMillis}, or no retry field when negative), before the response; the request still runs, and its
     * response is replayed to a GET with {@code Last-Event-ID}.
     */
    public void cutNextStreams(int count, long retryMillis) {
        this.cutRetryMillis = retryMillis;
        this.cutsLeft.set(count);
    }

    public void cutNextStream(long retryMillis) {
        cutNextStreams(1, retryMillis);
    }

    /**
     * The next {@code times} POSTs for {@code name} (a tool name; else the JSON-RPC method, such
     * as {@code tools/list}, {@code initialize} or {@code notifications/initialized}) are read
     * and their connection is closed without one byte of response: before they run (a server
     * that died on reading them), or after (it ran them, then died). After running applies to
     * answers sent as JSON (and to initialize and notifications).
     */
    public void closeWithoutAnswer(String name, int times, SilentCloses.When when) {
        silentCloses.arm(name, times, when);
    }

    /** The requests closed without an answer so far, and on which kind of connection. */
    public SilentCloses silentCloses() {
        return silentCloses;
    }

    /** When off, a resume GET gets an SSE stream that ends at once with nothing: the response is lost. */
    public void replayOnResume(boolean on) {
        this.replayOnResume = on;
    }

    /** Sends {@code notifications/tools/list_changed} on every open listen stream. */
    public void notifyToolsListChanged() {
        sessions.keySet().forEach(this::notifyToolsListChanged);
    }

    /**
     * Sends {@code notifications/tools/list_changed} on the listen stream of session {@code id}
     * only, as a server tells the one client whose request changed its tools; false when that
     * session has no open listen stream.
     */
    public boolean notifyToolsListChanged(String id) {
        FakeSession session = sessions.get(id);
        EventLog listen = session == null ? null : session.listenStreamIfOpen();
        if (listen == null) {
            return false;
        }
        listen.append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
        return true;
    }


    /** How many {@code initialize} requests were answered since the fake was created. */
    public int initializeCount() {
        return initializeCount.get();
    }

    /** How many times {@code tool} ran to completion. */
    public int executions(String tool) {
        return catalogue.executions(tool);
    }

    /** Every HTTP request received, in arrival order. */
    public List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    /** The JSON-RPC ids of POSTed requests of {@code rpcMethod}, in arrival order. */
    public List<String> requestIdsSeen(String rpcMethod) {
        return requests.stream().filter(RecordedRequest::isRpcRequest)
                .filter(r -> r.rpcMethod().equals(rpcMethod)).map(RecordedRequest::rpcId).toList();
    }

    /** The {@code Mcp-Session-Id} header of every request (null where absent). */
    public List<String> sessionIdsSeen() {
        return requests.stream().map(RecordedRequest::sessionId).toList();
    }

    /** The GETs that carried {@code Last-Event-ID}: resume attempts. */
    public List<RecordedRequest> resumes() {
        return requests.stream().filter(r -> "GET".equals(r.httpMethod()) && r.lastEventId() != null).toList();
    }

    /** {@link System#nanoTime()} of each stream cut, to compare with the resume GET's arrival. */
    public List<Long> cutTimes() {
        return List.copyOf(cutTimes);
    }

    public Set<String> liveSessions() {
        return Set.copyOf(sessions.keySet());
    }

    /**
     * How many listen streams (GET without Last-Event-ID) the server is serving. A client that
     * went away is only noticed when a write fails, so use this to wait for a stream to open,
     * not to prove that one closed.
     */
    public int openListenStreams() {
        return listenConnections.get();
    }


    FakeCatalogue catalogue() {
        return catalogue;
    }

    Map<String, FakeSession> sessions() {
        return sessions;
    }

    void record(RecordedRequest request) {
        requests.add(request);
    }

    void countInitialize() {
        initializeCount.incrementAndGet();
    }

    /** Whether the stream about to open is to be cut. */
    boolean takeCut() {
        return cutsLeft.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    }

    /** The {@code retry:} a cut stream announces; negative for none. */
    long cutRetryMillis() {
        return cutRetryMillis;
    }

    AtomicInteger listenConnections() {
        return listenConnections;
    }

    void recordCut() {
        cutTimes.add(System.nanoTime());
    }

    ResponseMode responseMode() {
        return responseMode;
    }

    SessionLossAnswer sessionLossAnswer() {
        return sessionLossAnswer;
    }

    boolean offersSubscriptions() {
        return offersSubscriptions;
    }

    boolean listenStreamEnabled() {
        return listenStreamEnabled;
    }

    boolean rejectEverySession() {
        return rejectEverySession;
    }

    long listenAnswerDelayMillis() {
        return listenAnswerDelayMillis;
    }

    long initializeDelayMillis() {
        return initializeDelayMillis;
    }

    boolean refuseInitialize() {
        return refuseInitialize;
    }

    boolean replayOnResume() {
        return replayOnResume;
    }

    boolean running() {
        return running;
    }

    private void endAllSessions() {
        List<FakeSession> all = List.copyOf(sessions.values());
        sessions.clear();
        all.forEach(FakeSession::end);
    }
}

package dev.mcpx.testkit.legacy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * An in-process server speaking the deprecated HTTP+SSE transport of protocol 2024-11-05:
 * {@code GET /sse} opens a stream whose first {@code endpoint} event names
 * {@code /messages?sessionId=...}; messages POSTed there are answered 202 and their responses
 * sent on the stream. It offers the same tools as {@link LegacyHttpUpstream}.
 */
public final class LegacySseUpstream implements AutoCloseable {

    private final Map<String, FakeSession> sessions = new ConcurrentHashMap<>();
    private final FakeCatalogue catalogue = new FakeCatalogue();
    private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();
    private volatile String announcedEndpoint;
    private volatile boolean stallPosts;
    private final Object stall = new Object();
    private volatile boolean running;
    private Server server;
    private int port;

    private LegacySseUpstream() {
    }

    public static LegacySseUpstream started() {
        LegacySseUpstream upstream = new LegacySseUpstream();
        upstream.start();
        return upstream;
    }

    /** Starts listening: first on an ephemeral port, after a {@link #stop()} on the same port again. */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        SamePortBind.bind(port, this::bind);
    }

    private void bind(int wantedPort) {
        VirtualThreadPool threads = new VirtualThreadPool();
        threads.setName("sse-upstream");
        Server s = new Server(threads);
        ServerConnector connector = new ServerConnector(s);
        connector.setHost("127.0.0.1");
        connector.setPort(wantedPort);
        connector.setReuseAddress(true);
        s.addConnector(connector);
        s.setHandler(new HttpSseHandler(this));
        s.setStopTimeout(2000);
        running = true;
        try {
            s.start();
        } catch (Exception e) {
            running = false;
            throw new IllegalStateException("could not start the fake HTTP+SSE upstream on port " + wantedPort, e);
        }
        server = s;
        port = connector.getLocalPort();
    }

    /**
     * Stops the server: its streams end, every session is gone, new connections are refused until
     * {@link #start()} listens on the same port again. Counters survive.
     */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        running = false;
        stallPosts(false);
        dropStreams();
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop the fake HTTP+SSE upstream", e);
        }
        server = null;
    }

    /** The SSE URL a client connects to. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + port + "/sse");
    }

    /** How many {@code GET /sse} streams are open now. */
    public int openStreams() {
        return sessions.size();
    }

    /** Ends every SSE stream, as a server that drops its clients does; the server stays up. */
    public void dropStreams() {
        List<FakeSession> all = List.copyOf(sessions.values());
        sessions.clear();
        all.forEach(FakeSession::end);
    }

    /** Announce this in the {@code endpoint} event instead of {@code /messages?sessionId=...}. */
    public void announceEndpoint(String endpoint) {
        this.announcedEndpoint = endpoint;
    }

    /**
     * When on, a POSTed message is read and then never answered, not even with its 202: an
     * upstream that accepts a request and stalls. Turning it off (or closing) lets them go.
     */
    public void stallPosts(boolean on) {
        synchronized (stall) {
            stallPosts = on;
            stall.notifyAll();
        }
    }

    /** Holds a POST while {@link #stallPosts} is on and the server runs. */
    void awaitNoStall() throws InterruptedException {
        synchronized (stall) {
            while (stallPosts && running) {
                stall.wait(500);
            }
        }
    }

    public List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    public int executions(String tool) {
        return catalogue.executions(tool);
    }

    @Override
    public void close() {
        stop();
    }

    Map<String, FakeSession> sessions() {
        return sessions;
    }

    FakeCatalogue catalogue() {
        return catalogue;
    }

    void record(RecordedRequest request) {
        requests.add(request);
    }

    String announcedEndpoint() {
        return announcedEndpoint;
    }

    boolean running() {
        return running;
    }
}

package dev.mcpx.testkit.conformance;

import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * An in-process MCP server on 127.0.0.1 that implements every fixture the official conformance
 * suite's server scenarios call (tools, resources, prompts, MRTR), for both protocol eras on
 * one endpoint {@code /mcp}: 2025-11-25 with sessions and 2026-07-28 stateless.
 *
 * <pre>{@code
 * try (ConformanceUpstream upstream = ConformanceUpstream.start()) {
 *     URI endpoint = upstream.url();   // http://127.0.0.1:PORT/mcp
 * }
 * }</pre>
 *
 * Also runs as a process: {@code java ... dev.mcpx.testkit.conformance.ConformanceUpstream [PORT]}.
 */
public final class ConformanceUpstream implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;
    private final LegacyTransport legacy;
    private final CountDownLatch closing = new CountDownLatch(1);

    /** Which eras {@code /mcp} speaks: both, or 2025-11-25 only (a server from before 2026-07-28). */
    public enum Eras { BOTH, LEGACY_ONLY }

    private ConformanceUpstream(int port, Eras eras) {
        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("conformance-upstream");
        // Listen streams and calls that wait for the client block their thread: make that cheap.
        threads.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server = new Server(threads);
        connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        Catalog catalog = Catalog.create();
        legacy = new LegacyTransport(catalog);
        server.setHandler(new McpHandler(legacy, new ModernTransport(catalog, closing), eras == Eras.BOTH));
        // no graceful wait: its streams are closed first, and at load 17 a 2 s grace ran out and failed a test's clean-up
        server.setStopTimeout(0);
    }

    /** Starts on an ephemeral port. */
    public static ConformanceUpstream start() {
        return start(0);
    }

    /** Starts on the given port (0 for an ephemeral one). */
    public static ConformanceUpstream start(int port) {
        return start(port, Eras.BOTH);
    }

    public static ConformanceUpstream start(int port, Eras eras) {
        ConformanceUpstream upstream = new ConformanceUpstream(port, eras);
        try {
            upstream.server.start();
        } catch (Exception e) {
            upstream.close();
            throw new IllegalStateException("could not start the conformance upstream on port " + port, e);
        }
        return upstream;
    }

    /** The MCP endpoint, {@code http://127.0.0.1:PORT/mcp}. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
    }

    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        closing.countDown();
        legacy.closeAll();
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop the conformance upstream", e);
        }
    }

    /**
     * Runs until killed: {@code ConformanceUpstream [PORT] [--legacy-only]} (default 3100),
     * printing the URL on stdout.
     */
    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 3100;
        Eras eras = args.length > 1 && args[1].equals("--legacy-only") ? Eras.LEGACY_ONLY : Eras.BOTH;
        ConformanceUpstream upstream = start(port, eras);
        Runtime.getRuntime().addShutdownHook(new Thread(upstream::close));
        System.out.println(upstream.url());
        System.out.flush();
        upstream.server.join();
    }
}

package dev.mcpx.testkit.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy in front of one upstream that fails connections on purpose, one
 * {@link ConnectionFault} per accepted connection as its {@link FaultPlan} says. It works on
 * bytes, below HTTP: a cut can fall before the status line, inside an SSE event or after the
 * response, exactly where a real network would drop it.
 */
public final class ChaosProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final AtomicLong connections = new AtomicLong();
    private final Map<String, AtomicLong> faults = new ConcurrentHashMap<>();
    private final AtomicLong cutsDone = new AtomicLong();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile FaultPlan plan;
    private volatile boolean closed;

    private ChaosProxy(InetSocketAddress target, FaultPlan plan) throws IOException {
        this.target = target;
        this.plan = plan;
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("chaos-proxy-accept").start(this::accept);
    }

    /** A proxy on an ephemeral loopback port forwarding to {@code upstream}'s host and port. */
    public static ChaosProxy start(URI upstream, FaultPlan plan) {
        try {
            return new ChaosProxy(new InetSocketAddress(upstream.getHost(), upstream.getPort()), plan);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the chaos proxy", e);
        }
    }

    /** {@code upstream} with its host and port replaced by the proxy's. */
    public URI url(URI upstream) {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort() + upstream.getRawPath());
    }

    /** Changes the plan for connections accepted from now on (for example to none, to let a run drain). */
    public void plan(FaultPlan next) {
        plan = next;
    }

    /** Closes every open connection, so the client's next request opens a new one under the current plan. */
    public void dropConnections() {
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** Connections accepted so far, by the fault kind they were given. */
    public Map<String, Long> faultsByKind() {
        Map<String, Long> out = new java.util.TreeMap<>();
        faults.forEach((kind, count) -> out.put(kind, count.get()));
        out.put("cut-delivered", cutsDone.get());
        return out;
    }

    /** Client-side sockets still open through the proxy. */
    public int openConnections() {
        return open.size();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            ConnectionFault fault = plan.faultFor(connections.getAndIncrement());
            faults.computeIfAbsent(fault.kind(), k -> new AtomicLong()).incrementAndGet();
            Thread.ofVirtual().name("chaos-proxy-conn").start(() -> serve(client, fault));
        }
    }

    private void serve(Socket client, ConnectionFault fault) {
        open.add(client);
        try (client; Socket upstream = new Socket()) {
            upstream.connect(target, 2_000);
            if (upstream.getLocalPort() == target.getPort()) {
                // connecting to a stopped loopback port can connect the socket to itself (Linux
                // simultaneous open), which would hold the port and keep the upstream from restarting
                return;
            }
            Thread up = Thread.ofVirtual().name("chaos-proxy-up").start(() -> pump(client, upstream));
            try {
                down(upstream, client, fault, up);
            } finally {
                client.close();
                upstream.close();
                up.join();
            }
        } catch (IOException | InterruptedException e) {
            // the peer went away, or a cut: both are the point of this proxy
        } finally {
            open.remove(client);
        }
    }

    private static void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // one side closed: the other pump ends too
        } finally {
            try {
                to.shutdownOutput();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    private void down(Socket upstream, Socket client, ConnectionFault fault, Thread up)
            throws IOException, InterruptedException {
        InputStream in = upstream.getInputStream();
        OutputStream out = client.getOutputStream();
        byte[] buffer = new byte[8192];
        long sent = 0;
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            switch (fault) {
                case ConnectionFault.Pass pass -> out.write(buffer, 0, n);
                case ConnectionFault.Stall stall -> {
                    // swallow: the client waits for bytes that never come
                }
                case ConnectionFault.Slow slow -> {
                    Thread.sleep(slow.delayMillis());
                    out.write(buffer, 0, n);
                }
                case ConnectionFault.Cut cut -> {
                    int allowed = (int) Math.min(n, Math.max(0, cut.afterBytes() - sent));
                    out.write(buffer, 0, allowed);
                    if (sent + n >= cut.afterBytes()) {
                        out.flush();
                        cutsDone.incrementAndGet();
                        client.setSoLinger(true, 0);
                        return;
                    }
                }
            }
            out.flush();
            sent += n;
        }
        if (fault instanceof ConnectionFault.Stall) {
            // the upstream finished; the client keeps waiting until it gives up and closes
            up.join();
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        dropConnections();
    }
}

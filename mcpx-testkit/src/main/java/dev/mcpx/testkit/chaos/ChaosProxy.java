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
    private final Set<Socket> withholding = ConcurrentHashMap.newKeySet();
    /** The start of what each open connection's client sent, so a test can say which one is withheld. */
    private final Map<Socket, StringBuffer> requestStarts = new ConcurrentHashMap<>();
    private volatile FaultPlan plan;
    private volatile ConnectionFault forced;
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

    /** Gives every connection accepted from now on {@code fault}, whatever the plan says; null: the plan again. */
    public void forceFault(ConnectionFault fault) {
        forced = fault;
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

    /**
     * Client-side sockets still open whose response the proxy has held back bytes of: a client
     * that gave up on a stalled exchange closes its connection, and this count drops.
     */
    public int withholdingConnections() {
        return withholding.size();
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
            long connection = connections.getAndIncrement();
            ConnectionFault fault = forced != null ? forced : plan.faultFor(connection);
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
            StringBuffer sent = new StringBuffer();
            requestStarts.put(client, sent);
            Thread up = Thread.ofVirtual().name("chaos-proxy-up").start(() -> pumpRecording(client, upstream, sent));
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
            withholding.remove(client);
            requestStarts.remove(client);
        }
    }

    /** The request head of each connection the proxy is withholding a body from now. */
    public java.util.List<String> withheldRequests() {
        return withholding.stream().map(socket -> {
            StringBuffer sent = requestStarts.get(socket);
            String start = sent == null ? "" : sent.toString();
            int end = start.indexOf("\r\n\r\n");
            return (end < 0 ? start : start.substring(0, end)).replace("\r\n", " | ");
        }).toList();
    }

    private static void pumpRecording(Socket from, Socket to, StringBuffer sent) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (sent.length() < 512) {
                    sent.append(new String(buffer, 0, Math.min(n, 512), java.nio.charset.StandardCharsets.ISO_8859_1));
                }
                out.write(buffer, 0, n);
                out.flush();
            }
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
        HeaderEnd headers = new HeaderEnd();
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            switch (fault) {
                case ConnectionFault.StallBody stallBody -> {
                    int through = headers.through(buffer, n);
                    out.write(buffer, 0, through);
                    if (through < n) {
                        withholding.add(client);
                    }
                }
                case ConnectionFault.Pass pass -> out.write(buffer, 0, n);
                case ConnectionFault.Stall stall -> withholding.add(client);
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
        if (fault instanceof ConnectionFault.Stall || fault instanceof ConnectionFault.StallBody) {
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

    /** Finds the blank line that ends a response's headers across reads; bytes after it are withheld. */
    private static final class HeaderEnd {
        private int matched;
        private boolean done;

        /** How many of {@code n} bytes belong to the headers (all of them until the end is seen, then none). */
        int through(byte[] buffer, int n) {
            if (done) {
                return 0;
            }
            byte[] end = {'\r', '\n', '\r', '\n'};
            for (int i = 0; i < n; i++) {
                matched = buffer[i] == end[matched] ? matched + 1 : buffer[i] == '\r' ? 1 : 0;
                if (matched == end.length) {
                    done = true;
                    return i + 1;
                }
            }
            return n;
        }
    }
}

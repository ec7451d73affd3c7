package dev.mcpx.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The JVM's floor on this machine: a hand-written blocking HTTP/1.1 proxy of POST bodies, one
 * platform thread per host connection, each with its own kept-alive upstream connection, so a
 * call never changes threads (the thread that read the request reads the answer). Not a server
 * to ship (no limits, Content-Length bodies only): the line under every figure of the hop.
 * {@code java -cp bench.jar dev.mcpx.bench.SocketFloorProxy UPSTREAM_URL}.
 */
public final class SocketFloorProxy {

    private SocketFloorProxy() {
    }

    public static void main(String[] args) throws IOException {
        URI upstream = URI.create(args[0]);
        // a cached pool: a connection's thread outlives it a while, so /proc still counts its switches
        ExecutorService threads = Executors.newCachedThreadPool();
        try (ServerSocket listener = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress())) {
            System.out.println("listening on http://127.0.0.1:" + listener.getLocalPort() + "/mcp");
            System.out.flush();
            while (true) {
                Socket host = listener.accept();
                threads.execute(() -> serve(host, upstream));
            }
        }
    }

    private static void serve(Socket host, URI upstream) {
        try (host; Connection up = Connection.open(upstream)) {
            host.setTcpNoDelay(true);
            InputStream fromHost = new BufferedInputStream(host.getInputStream(), 16_384);
            OutputStream toHost = host.getOutputStream();
            String head = postHead(upstream);
            while (true) {
                byte[] body = readMessage(fromHost);
                if (body == null) {
                    return;
                }
                byte[] answer = up.exchange(head, body);
                toHost.write(message("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ", answer));
                toHost.flush();
            }
        } catch (IOException e) {
            // the host or the upstream hung up: this connection is done
        }
    }

    /** A POST's head up to its Content-Length value. */
    static String postHead(URI upstream) {
        return "POST " + upstream.getPath() + " HTTP/1.1\r\nHost: " + upstream.getAuthority()
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ";
    }

    /** A kept-alive upstream connection that carries one POST and its answer at a time, blocking. */
    record Connection(Socket socket, InputStream in, OutputStream out) implements AutoCloseable {

        static Connection open(URI upstream) throws IOException {
            Socket socket = new Socket(upstream.getHost(), upstream.getPort());
            socket.setTcpNoDelay(true);
            return new Connection(socket, new BufferedInputStream(socket.getInputStream(), 16_384), socket.getOutputStream());
        }

        byte[] exchange(String head, byte[] body) throws IOException {
            out.write(message(head, body));
            out.flush();
            byte[] answer = readMessage(in);
            if (answer == null) {
                throw new EOFException("the upstream closed the connection");
            }
            return answer;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }

        /**
         * {@code body} POSTed on this thread's own kept-alive connection in {@code connections},
         * opened on first use; a thread idle past the upstream's keep-alive finds its connection
         * closed and gets one new one, as mcpx does.
         */
        static byte[] onThread(ThreadLocal<Connection> connections, URI upstream, String head, byte[] body)
                throws IOException {
            Connection up = connections.get();
            if (up == null) {
                up = open(upstream);
                connections.set(up);
            }
            try {
                return up.exchange(head, body);
            } catch (IOException idleClosed) {
                up.close();
                up = open(upstream);
                connections.set(up);
                try {
                    return up.exchange(head, body);
                } catch (IOException e) {
                    connections.remove();
                    up.close();
                    throw e;
                }
            }
        }
    }

    private static byte[] message(String headUpToLength, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(headUpToLength.length() + body.length + 16);
        out.writeBytes((headUpToLength + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** One message's head, then its Content-Length body; null at a clean end of stream. */
    private static byte[] readMessage(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int length = -1;
        boolean started = false;
        while (true) {
            int c = in.read();
            if (c < 0) {
                if (!started) {
                    return null;
                }
                throw new EOFException("cut inside a message head");
            }
            started = true;
            if (c != '\n') {
                line.append((char) c);
                continue;
            }
            String header = line.toString().trim();
            line.setLength(0);
            if (header.isEmpty()) {
                break;
            }
            int colon = header.indexOf(':');
            if (colon > 0 && header.substring(0, colon).toLowerCase(Locale.ROOT).equals("content-length")) {
                length = Integer.parseInt(header.substring(colon + 1).trim());
            }
        }
        if (length < 0) {
            throw new IOException("a message without Content-Length");
        }
        return in.readNBytes(length);
    }
}

package dev.mcpx.testkit.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real {@code redis-server} (Debian's) as a child of the test, on a unix socket in {@code dir}
 * and no TCP port (Redis cannot pick an ephemeral one and say which), nothing saved to disk.
 * {@link #uri()} reaches it through a HAProxy TCP relay on a port the kernel chose.
 */
public final class RedisServer implements AutoCloseable {

    private final Process process;
    private final List<String> output = new ArrayList<>();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final Path socket;
    private HaProxy relay;

    private RedisServer(Process process, Path socket) {
        this.process = process;
        this.socket = socket;
        Thread.ofVirtual().name("redis-output").start(this::drain);
    }

    public static RedisServer start(Path dir) throws Exception {
        Path socket = dir.resolve("redis.sock");
        Process process = new ProcessBuilder("redis-server", "--port", "0", "--unixsocket", socket.toString(),
                "--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--dir", dir.toString())
                .redirectErrorStream(true).start();
        RedisServer redis = new RedisServer(process, socket);
        try {
            redis.ready.get(60, TimeUnit.SECONDS);
            redis.relay = HaProxy.tcpToUnixSocket(dir, socket);
        } catch (TimeoutException | RuntimeException e) {
            redis.close();
            throw new IllegalStateException("redis-server did not get ready: " + redis.output(), e);
        }
        return redis;
    }

    private void drain() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (output) {
                    output.add(line);
                }
                if (line.toLowerCase(java.util.Locale.ROOT).contains("ready to accept connections")) {
                    ready.complete(null);
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IllegalStateException("redis-server exited: " + output()));
    }

    /** {@code redis://127.0.0.1:PORT} of the relay in front of it. */
    public java.net.URI uri() {
        return java.net.URI.create("redis://127.0.0.1:" + relay.port());
    }

    /** Its unix socket, for another relay in front of it. */
    public Path socket() {
        return socket;
    }

    public String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    @Override
    public void close() throws Exception {
        if (relay != null) {
            relay.close();
        }
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}

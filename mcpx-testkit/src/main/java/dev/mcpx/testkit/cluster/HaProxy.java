package dev.mcpx.testkit.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real HAProxy (Debian's {@code haproxy}) as a child of the test, on a port the kernel chose:
 * HAProxy cannot bind port 0, so a small Perl launcher binds it, says which port it got and
 * hands the listening socket to HAProxy ({@code bind fd@N}).
 */
public final class HaProxy implements AutoCloseable {

    private final Process process;
    private final List<String> output = new ArrayList<>();
    private final CompletableFuture<Integer> port = new CompletableFuture<>();

    private HaProxy(Process process) {
        this.process = process;
        Thread.ofVirtual().name("haproxy-output").start(this::drain);
    }

    /**
     * HTTP, round robin over {@code servers} (HOST:PORT), no affinity of any kind. A server that
     * refuses a TCP connection (a replica that died) is taken out at its next check (every
     * 500 ms); meanwhile a request refused by it goes to the next one.
     */
    public static HaProxy roundRobin(Path dir, List<String> servers) throws Exception {
        StringBuilder config = new StringBuilder(DEFAULTS.formatted("http") + """
                frontend mcp
                  bind "fd@${MCPX_LISTEN_FD}"
                  default_backend replicas
                backend replicas
                  balance roundrobin
                  retries 3
                  option redispatch 1
                  default-server check inter 500ms fall 1 rise 1
                """);
        for (int i = 0; i < servers.size(); i++) {
            config.append("  server replica").append(i + 1).append(' ').append(servers.get(i)).append('\n');
        }
        return start(dir, "http-lb", config.toString());
    }

    /** TCP to a unix socket: Redis listens on one (it cannot report an ephemeral port), Jedis speaks TCP only. */
    public static HaProxy tcpToUnixSocket(Path dir, Path socket) throws Exception {
        return start(dir, "redis-relay", DEFAULTS.formatted("tcp") + """
                frontend redis
                  bind "fd@${MCPX_LISTEN_FD}"
                  default_backend redis
                backend redis
                  server redis unix@%s
                """.formatted(socket));
    }

    private static final String DEFAULTS = """
            defaults
              mode %s
              timeout connect 5s
              timeout client 1h
              timeout server 1h
            """;

    private static HaProxy start(Path dir, String name, String config) throws Exception {
        Path file = dir.resolve(name + ".cfg");
        Files.writeString(file, config);
        Path launcher = dir.resolve("listen-then-exec.pl");
        if (!Files.exists(launcher)) {
            try (InputStream script = HaProxy.class.getResourceAsStream("listen-then-exec.pl")) {
                Files.copy(script, launcher);
            }
        }
        Process process = new ProcessBuilder("perl", launcher.toString(), "haproxy", "-db", "-f", file.toString())
                .redirectErrorStream(true).start();
        HaProxy proxy = new HaProxy(process);
        try {
            proxy.port.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            proxy.close();
            throw new IllegalStateException("haproxy said no port within 60 s: " + proxy.output());
        }
        return proxy;
    }

    private void drain() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (output) {
                    output.add(line);
                }
                if (line.startsWith("port ")) {
                    port.complete(Integer.parseInt(line.substring(5).trim()));
                }
            }
        } catch (IOException e) {
            port.completeExceptionally(e);
        }
        port.completeExceptionally(new IllegalStateException("haproxy exited: " + output()));
    }

    public int port() {
        return port.join();
    }

    /** Dead already? Then its output says why. */
    public void assertAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException("haproxy exited: " + output());
        }
    }

    public String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}

package dev.mcpx.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/mcpx serve --http} as users run it, on a free loopback port. {@code cpuMillisAtAnswer}:
 * the CPU time the gateway had used when its first initialize was answered.
 */
record McpxGateway(ChildProcess process, URI url, long launchedNanos, long answeredNanos, double cpuMillisAtAnswer)
        implements AutoCloseable {

    static McpxGateway start(BenchEnv env, String name, Path config, Map<String, String> extraEnv)
            throws InterruptedException {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(env.mcpx().toString(), "serve", "-c", config.toString(),
                "--http", "127.0.0.1:" + port));
        Map<String, String> vars = ChildProcess.env("MCPX_LOG", "WARN");
        vars.putAll(extraEnv);
        long launched = System.nanoTime();
        ChildProcess process = ChildProcess.start(name, command, vars, env.logDir());
        URI url = URI.create("http://127.0.0.1:" + port + "/mcp");
        try {
            long answered = HttpProbe.awaitInitialize(url, Duration.ofSeconds(60), 2, process);
            return new McpxGateway(process, url, launched, answered, ProcStat.cpuMillis(process.pid()));
        } catch (RuntimeException | InterruptedException e) {
            process.close();
            throw e;
        }
    }

    /** From launch to the first answered initialize. */
    Duration startup() {
        return Duration.ofNanos(answeredNanos - launchedNanos);
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    @Override
    public void close() {
        process.close();
    }
}

package dev.mcpx.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The reference server (server-everything) over Streamable HTTP as a child process, on a port
 * the OS chose: started with PORT=0, it says which port it got through {@link NodePortReport}. A restart reuses that port, as a redeployed server would; a
 * process that dies before it listens fails at once, with its output in the exception.
 */
public final class EverythingHttpServer implements AutoCloseable {

    private static final int RESTART_ATTEMPTS = 5;
    private static final long START_SECONDS = 60;

    private final NodeTools tools;
    private final List<String> log = new ArrayList<>();
    private Process process;
    private int port;

    private EverythingHttpServer(NodeTools tools) {
        this.tools = tools;
    }

    /** Starts it on a port the OS picks, and returns once it listens. */
    public static EverythingHttpServer start(NodeTools tools) {
        EverythingHttpServer server = new EverythingHttpServer(tools);
        server.port = server.launch(0);
        return server;
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:PORT/mcp}. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + port + "/mcp");
    }

    /** Kills the process (and its children) at once, as a crash would. */
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /**
     * Kills it and starts a new process on the same port. The port can be taken meanwhile (by the
     * local end of some outgoing connection): a start that fails to bind is tried again, a few
     * times, then reported with the log.
     */
    public void restart() {
        kill();
        IllegalStateException last = null;
        for (int attempt = 1; attempt <= RESTART_ATTEMPTS; attempt++) {
            try {
                launch(port);
                return;
            } catch (IllegalStateException e) {
                if (!log().contains("EADDRINUSE")) {
                    throw e;
                }
                last = e;
            }
        }
        throw last;
    }

    /** Everything the process wrote, stdout and stderr. */
    public String log() {
        synchronized (log) {
            return String.join("\n", log);
        }
    }

    @Override
    public void close() {
        kill();
    }

    private synchronized int launch(int wanted) {
        List<String> command = new ArrayList<>(List.of(tools.node().toString()));
        command.addAll(NodePortReport.nodeArgs());
        command.addAll(List.of(tools.serverEverything().toString(), "streamableHttp"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("PORT", Integer.toString(wanted));
        builder.redirectErrorStream(true);
        CompletableFuture<Integer> listening = new CompletableFuture<>();
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start server-everything", e);
        }
        InputStream output = process.getInputStream();
        Thread.ofVirtual().name("everything-http-output").start(() -> drain(output, listening));
        try {
            return listening.get(START_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            kill();
            throw new IllegalStateException("server-everything (PORT=" + wanted + ") did not listen: "
                    + (e instanceof TimeoutException ? "nothing said within " + START_SECONDS + " s" : e.getCause().getMessage())
                    + "; its output:\n" + log(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
            throw new IllegalStateException("interrupted while server-everything started", e);
        }
    }

    private void drain(InputStream output, CompletableFuture<Integer> listening) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (log) {
                    log.add(line);
                }
                NodePortReport.port(line).ifPresent(listening::complete);
            }
        } catch (IOException e) {
            // the process went away: the future below says so
        }
        listening.completeExceptionally(new IllegalStateException("server-everything exited before it listened"));
    }
}

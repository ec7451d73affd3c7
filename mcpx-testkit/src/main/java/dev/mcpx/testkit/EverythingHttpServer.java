package dev.mcpx.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference server (server-everything) over Streamable HTTP as a child process, on a port
 * the OS chose: started with PORT=0, it says which port it got through a preloaded script (its
 * own log line says "port 0"). A restart reuses that port, as a redeployed server would; a
 * process that dies before it listens fails at once, with its output in the exception.
 */
public final class EverythingHttpServer implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("mcpx-testkit: listening on port (\\d+)");
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
        ProcessBuilder builder = new ProcessBuilder(tools.node().toString(), "--require", preload().toString(),
                tools.serverEverything().toString(), "streamableHttp");
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
                Matcher matcher = LISTENING.matcher(line);
                if (matcher.find()) {
                    listening.complete(Integer.parseInt(matcher.group(1)));
                }
            }
        } catch (IOException e) {
            // the process went away: the future below says so
        }
        listening.completeExceptionally(new IllegalStateException("server-everything exited before it listened"));
    }

    private static Path preload() {
        try (InputStream script = EverythingHttpServer.class.getResourceAsStream("report-listening.cjs")) {
            if (script == null) {
                throw new IllegalStateException("report-listening.cjs is missing from the testkit's resources");
            }
            Path file = Files.createTempFile("mcpx-report-listening", ".cjs");
            file.toFile().deleteOnExit();
            Files.copy(script, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.mcpx.gateway;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** {@code mcpx serve ...} as a real child process of the test, on this class path. */
public final class ServeProcess implements AutoCloseable {

    private final Process process;
    private final List<String> stderr = new ArrayList<>();
    private final CompletableFuture<Void> listening = new CompletableFuture<>();

    private ServeProcess(Process process) {
        this.process = process;
        Thread.ofVirtual().start(this::drainStderr);
    }

    public static ServeProcess start(Map<String, String> environment, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(TestGateways.java(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "dev.mcpx.cli.Main"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        return new ServeProcess(builder.start());
    }

    private void drainStderr() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (stderr) {
                    stderr.add(line);
                }
                if (line.contains("listening on")) {
                    listening.complete(null);
                }
            }
        } catch (IOException e) {
            listening.completeExceptionally(e);
        }
        listening.completeExceptionally(new IllegalStateException("mcpx serve exited: " + stderr()));
    }

    /** Waits for the HTTP front to listen. */
    public ServeProcess awaitListening() throws Exception {
        listening.get(60, TimeUnit.SECONDS);
        return this;
    }

    public Process process() {
        return process;
    }

    public String stderr() {
        synchronized (stderr) {
            return String.join("\n", stderr);
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
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

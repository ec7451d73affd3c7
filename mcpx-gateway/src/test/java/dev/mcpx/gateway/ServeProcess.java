package dev.mcpx.gateway;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code mcpx serve ...} as a real child process of the test, on this class path. */
public final class ServeProcess implements AutoCloseable {

    private final Process process;
    private final List<String> stderr = new ArrayList<>();
    private static final Pattern LISTENING = Pattern.compile("mcpx: listening on (http\\S+)/mcp");
    private final CompletableFuture<URI> listening = new CompletableFuture<>();

    private ServeProcess(Process process) {
        this.process = process;
        Thread.ofVirtual().start(this::drainStderr);
    }

    public static ServeProcess start(Map<String, String> environment, String... args) throws IOException {
        return start(List.of(), environment, args);
    }

    /** {@code jvmOptions} go before the main class (system properties, logging of the JVM). */
    public static ServeProcess start(List<String> jvmOptions, Map<String, String> environment, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(TestGateways.java(), "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.mcpx.cli.Main"));
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
                Matcher matcher = LISTENING.matcher(line);
                if (matcher.find()) {
                    listening.complete(URI.create(matcher.group(1)));
                }
            }
        } catch (IOException e) {
            listening.completeExceptionally(e);
        }
        listening.completeExceptionally(new IllegalStateException("mcpx serve exited: " + stderr()));
    }

    /** Waits for the HTTP front to listen (start it with {@code --http 127.0.0.1:0}: it says where). */
    public ServeProcess awaitListening() throws Exception {
        listening.get(60, TimeUnit.SECONDS);
        return this;
    }

    /** The MCP endpoint the front said it listens on, {@code http://HOST:PORT/mcp}. */
    public URI mcpUri() {
        return base().resolve("/mcp");
    }

    /** {@code /status} of the front. */
    public URI statusUri() {
        return base().resolve("/status");
    }

    private URI base() {
        URI base = listening.getNow(null);
        if (base == null) {
            throw new IllegalStateException("mcpx serve is not listening yet: call awaitListening() first");
        }
        return base;
    }

    /** The first group of {@code pattern} in the first stderr line it matches, once one does (a dead process fails). */
    public String awaitStderr(Pattern pattern) {
        return org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> {
            if (!process.isAlive() && listening.isCompletedExceptionally()) {
                throw new IllegalStateException("mcpx serve exited: " + stderr());
            }
            Matcher matcher = pattern.matcher(stderr());
            return matcher.find() ? matcher.group(1) : null;
        }, java.util.Objects::nonNull);
    }

    public Process process() {
        return process;
    }

    public String stderr() {
        synchronized (stderr) {
            return String.join("\n", stderr);
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

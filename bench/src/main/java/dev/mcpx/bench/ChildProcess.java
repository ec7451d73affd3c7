package dev.mcpx.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * A server under test run as its own process, output to a log file, ended with its descendants.
 * Servers bind port 0 and say where they listen on a line of their output: {@link #awaitListening}
 * reads it (no probing for a free port), and fails at once when the process exits first.
 */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;
    private final CompletableFuture<String> listening = new CompletableFuture<>();

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code command}; its output goes to {@code logDir/name.log}, and the first line that
     * {@code listeningLine} finds gives {@link #awaitListening} its first group.
     */
    static ChildProcess start(String name, List<String> command, Map<String, String> env, Path logDir,
                              Function<String, Optional<String>> listeningLine) {
        try {
            Files.createDirectories(logDir);
            Path log = logDir.resolve(name + ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(env);
            ChildProcess child = new ChildProcess(name, builder.start(), log);
            Thread.ofVirtual().name(name + "-output").start(() -> child.copyOutput(listeningLine));
            return child;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + ": " + command, e);
        }
    }

    /** What the listening line said (a URL or a port), once the process printed it. */
    String awaitListening(Duration timeout) throws InterruptedException {
        try {
            return listening.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(name + " said nowhere that it listens within " + timeout + "; see " + log);
        } catch (ExecutionException e) {
            throw new IllegalStateException(name + " exited before it listened; see " + log, e.getCause());
        }
    }

    private void copyOutput(Function<String, Optional<String>> listeningLine) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.write(line);
                out.newLine();
                out.flush();
                if (!listening.isDone()) {
                    listeningLine.apply(line).ifPresent(listening::complete);
                }
            }
        } catch (IOException e) {
            // the process went away; the future below says so
        }
        listening.completeExceptionally(new IllegalStateException(name + " ended its output"));
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    /** Resident set size of this process alone, in MiB, from /proc. */
    double rssMib() {
        return Rss.ofPid(process.pid());
    }

    /** Private resident memory (RssAnon): what a mapped class archive does not inflate. */
    double anonymousRssMib() {
        return Rss.anonymousOfPid(process.pid());
    }

    void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see " + log);
        }
    }

    @Override
    public void close() {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        descendants.forEach(ProcessHandle::destroy);
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }

    /** Environment variables as name, value, name, value... */
    static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }
}

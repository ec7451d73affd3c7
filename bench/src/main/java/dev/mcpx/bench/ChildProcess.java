package dev.mcpx.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A server under test run as its own process, output to a log file, ended with its descendants. */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static ChildProcess start(String name, List<String> command, Map<String, String> env, Path logDir) {
        try {
            Files.createDirectories(logDir);
            Path log = logDir.resolve(name + ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().putAll(env);
            return new ChildProcess(name, builder.start(), log);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + ": " + command, e);
        }
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

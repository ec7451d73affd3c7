package dev.mcpx.transport.stdio;

import dev.mcpx.transport.UpstreamEndpoint;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.time.Duration;

/** Starting and stopping upstream child processes, with the environment they are allowed. */
final class ChildProcesses {

    /** What a child gets from the gateway's environment unless its config asks for everything. */
    private static final List<String> SAFE_BASE = List.of("PATH", "HOME", "USER", "LOGNAME", "SHELL",
            "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM", "SYSTEMROOT", "JAVA_HOME");

    private ChildProcesses() {
    }

    /** The child {@link EarlyChildren} started for {@code endpoint}, else a new one. */
    static Process start(UpstreamEndpoint.Stdio endpoint) throws IOException {
        Process early = EarlyChildren.claim(endpoint);
        return early != null ? early : spawn(endpoint);
    }

    static Process spawn(UpstreamEndpoint.Stdio endpoint) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(endpoint.command());
        command.addAll(endpoint.args());
        ProcessBuilder builder = new ProcessBuilder(command);
        if (endpoint.cwd() != null) {
            builder.directory(endpoint.cwd().toFile());
        }
        Map<String, String> env = builder.environment();
        if (!endpoint.inheritEnvironment()) {
            env.keySet().retainAll(SAFE_BASE);
        }
        env.putAll(endpoint.env());
        builder.redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.redirectOutput(ProcessBuilder.Redirect.PIPE);
        builder.redirectError(ProcessBuilder.Redirect.PIPE);
        return builder.start();
    }

    /**
     * Closes stdin (the polite signal), then SIGTERM, then SIGKILL, each after {@code grace};
     * descendants get the same, so a wrapper such as npx leaves no orphan behind.
     */
    static void stop(Process process, Duration grace) {
        List<ProcessHandle> descendants = process.descendants().toList();
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already closed: the child is going anyway
        }
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroy();
                descendants.forEach(ProcessHandle::destroy);
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}

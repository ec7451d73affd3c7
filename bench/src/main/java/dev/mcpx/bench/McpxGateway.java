package dev.mcpx.bench;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/mcpx serve --http} as users run it, on a loopback port the OS chose (it says which). {@code cpuMillisAtAnswer}:
 * the CPU time the gateway had used when its first initialize was answered.
 */
record McpxGateway(ChildProcess process, URI url, long launchedNanos, long answeredNanos, double cpuMillisAtAnswer)
        implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("mcpx: listening on (http\\S+/mcp)");

    static McpxGateway start(BenchEnv env, String name, Path config, Map<String, String> extraEnv)
            throws InterruptedException {
        List<String> command = new ArrayList<>(List.of(env.mcpx().toString(), "serve", "-c", config.toString(),
                "--http", "127.0.0.1:0"));
        Map<String, String> vars = ChildProcess.env("MCPX_LOG", "WARN");
        vars.putAll(extraEnv);
        long launched = System.nanoTime();
        ChildProcess process = ChildProcess.start(name, command, vars, env.logDir(), McpxGateway::listeningUrl);
        try {
            URI url = URI.create(process.awaitListening(Duration.ofSeconds(60)));
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

    private static Optional<String> listeningUrl(String line) {
        Matcher matcher = LISTENING.matcher(line);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    @Override
    public void close() {
        process.close();
    }
}

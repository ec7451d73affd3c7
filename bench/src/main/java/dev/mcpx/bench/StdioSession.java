package dev.mcpx.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** {@code bin/mcpx serve --stdio} driven line by line as a host would, timed from launch. */
final class StdioSession implements AutoCloseable {

    static final String INITIALIZE = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{},"clientInfo":{"name":"mcpx-bench","version":"1"}}}""";

    private final Process process;
    private final BufferedReader out;
    private final OutputStream in;
    private final long launchedNanos;

    private StdioSession(Process process, long launchedNanos) {
        this.process = process;
        this.launchedNanos = launchedNanos;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = process.getOutputStream();
    }

    static StdioSession launch(BenchEnv env, List<String> command, Map<String, String> vars) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(env.logDir().resolve("mcpx-stdio.log").toFile()));
        builder.environment().putAll(vars);
        long launched = System.nanoTime();
        return new StdioSession(builder.start(), launched);
    }

    /** Sends one line and, for a request, returns the next line that carries {@code "id":ID}. */
    String request(String line, int id) throws IOException {
        send(line);
        String marker = "\"id\":" + id + ",";
        String reply;
        while ((reply = out.readLine()) != null) {
            if (reply.contains(marker) || reply.contains("\"id\":" + id + "}")) {
                return reply;
            }
        }
        throw new IOException("mcpx closed stdout before answering request " + id);
    }

    void send(String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    long launchedNanos() {
        return launchedNanos;
    }

    long pid() {
        return process.pid();
    }

    /** Closes stdin (the host leaves) and waits for mcpx to exit by itself. */
    int finish() throws IOException, InterruptedException {
        in.close();
        return process.waitFor();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
    }
}

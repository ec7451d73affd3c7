package dev.mcpx.transport.stdio;

import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.TransportKind;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An upstream that runs as a child process speaking newline-delimited JSON-RPC on stdin/stdout.
 * Stderr goes to the log (never mixed with protocol). When the child exits, the transport
 * reports {@link TransportEvent.Closed} with the exit code and its last stderr lines, so every
 * pending request fails at once instead of timing out.
 */
public final class StdioTransport implements Transport {

    private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);
    private static final Duration GRACE = Duration.ofSeconds(2);

    private final UpstreamEndpoint.Stdio endpoint;
    private final JsonRpcCodec codec;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final StderrTail stderrTail = new StderrTail(20);
    private volatile Process process;
    private volatile OutputStream stdin;
    private volatile boolean closing;
    private volatile Thread stderrPump;

    public StdioTransport(UpstreamEndpoint.Stdio endpoint, int maxMessageChars) {
        this.endpoint = endpoint;
        this.codec = new JsonRpcCodec(maxMessageChars);
    }

    @Override
    public void start(Consumer<TransportEvent> events) {
        try {
            process = ChildProcesses.start(endpoint);
        } catch (IOException e) {
            throw new UpstreamUnavailableException("could not start " + description() + ": " + e.getMessage(), e);
        }
        stdin = process.getOutputStream();
        Process child = process;
        stderrPump = Thread.ofVirtual().name("mcpx-stdio-err-" + child.pid()).start(() -> pumpStderr(child.getErrorStream()));
        Thread.ofVirtual().name("mcpx-stdio-out-" + child.pid()).start(() -> pumpStdout(child, events));
    }

    private void pumpStdout(Process child, Consumer<TransportEvent> events) {
        LineReader lines = new LineReader(child.getInputStream(), codec.maxChars());
        try {
            while (true) {
                LineReader.Line line = lines.next();
                if (line == null) {
                    break;
                }
                switch (line) {
                    case LineReader.Line.Text text -> deliver(text.value(), events);
                    case LineReader.Line.TooLong tooLong -> events.accept(new TransportEvent.Undecodable(
                            tooLong.excerpt(), new MalformedMessageException(MalformedMessageException.Kind.TOO_LARGE,
                            "line of more than " + codec.maxChars() + " bytes", null)));
                }
            }
        } catch (IOException e) {
            log.debug("stdout of {} failed: {}", description(), e.getMessage());
        }
        events.accept(new TransportEvent.Closed(exited(child)));
    }

    private void deliver(String line, Consumer<TransportEvent> events) {
        if (line.isBlank()) {
            return;
        }
        try {
            events.accept(new TransportEvent.Received(codec.decode(line)));
        } catch (MalformedMessageException e) {
            events.accept(new TransportEvent.Undecodable(excerpt(line), e));
        }
    }

    private McpException exited(Process child) {
        if (closing) {
            return new UpstreamUnavailableException("upstream " + description() + " was stopped");
        }
        Integer code = null;
        try {
            if (child.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                code = child.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Thread pump = stderrPump;
            if (pump != null) {
                pump.join(500);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String tail = stderrTail.text();
        return new UpstreamUnavailableException("upstream " + description() + " exited"
                + (code == null ? " (closed its stdout)" : " with code " + code)
                + (tail.isEmpty() ? "" : "; last stderr: " + tail));
    }

    private void pumpStderr(InputStream err) {
        LineReader lines = new LineReader(err, 64 * 1024);
        try {
            LineReader.Line line;
            while ((line = lines.next()) != null) {
                String text = switch (line) {
                    case LineReader.Line.Text t -> t.value();
                    case LineReader.Line.TooLong t -> t.excerpt() + "...";
                };
                stderrTail.add(text);
                log.info("[{} stderr] {}", endpoint.command(), text);
            }
        } catch (IOException e) {
            log.debug("stderr of {} closed: {}", description(), e.getMessage());
        }
    }

    @Override
    public void send(Outbound outbound) {
        OutputStream out = stdin;
        if (out == null || closing) {
            throw new UpstreamUnavailableException("upstream " + description() + " is not running");
        }
        byte[] line = (codec.encode(outbound.message()) + "\n").getBytes(StandardCharsets.UTF_8);
        writeLock.lock();
        try {
            out.write(line);
            out.flush();
        } catch (IOException e) {
            throw new UpstreamUnavailableException("upstream " + description() + " stopped reading: " + e.getMessage(), e);
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public TransportKind kind() {
        return TransportKind.STDIO;
    }

    @Override
    public String description() {
        return endpoint.command() + (endpoint.args().isEmpty() ? "" : " " + String.join(" ", endpoint.args()));
    }

    @Override
    public Optional<Long> pid() {
        Process p = process;
        return p == null ? Optional.empty() : Optional.of(p.pid());
    }

    /** Closes stdin, waits; then SIGTERM, waits; then SIGKILL, for the child and its descendants. */
    @Override
    public void close() {
        closing = true;
        Process p = process;
        if (p == null) {
            return;
        }
        ChildProcesses.stop(p, GRACE);
    }

    private static String excerpt(String line) {
        return line.length() <= 200 ? line : line.substring(0, 200) + "...";
    }
}

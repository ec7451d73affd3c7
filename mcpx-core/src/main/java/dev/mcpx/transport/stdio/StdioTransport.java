package dev.mcpx.transport.stdio;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.RequestId;
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
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
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
final class StdioTransport implements Transport {

    private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);
    private static final Duration GRACE = Duration.ofSeconds(2);
    /** A write with no deadline of its own (none today) still gets one: a child that stops reading must not go unnoticed. */
    static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(60);

    private final UpstreamEndpoint.Stdio endpoint;
    private final JsonRpcCodec codec;
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Lines for the child's stdin, written in order by its one writer thread. */
    private final LinkedBlockingQueue<PendingWrite> writes = new LinkedBlockingQueue<>();
    private final StderrTail stderrTail = new StderrTail(20);
    private volatile Process process;
    private volatile OutputStream stdin;
    private volatile Consumer<TransportEvent> events = event -> { };
    /** The line the writer is writing now, null between lines. */
    private volatile PendingWrite writing;
    /** Why the child's stdin failed, once it has: a closed pipe stays closed. */
    private volatile IOException stdinFailed;
    private volatile boolean closing;
    private volatile Thread stderrPump;
    /** Why the transport killed its child, when it did: the reason callers and the pool are told. */
    private volatile String broken;

    StdioTransport(UpstreamEndpoint.Stdio endpoint, int maxMessageChars) {
        this.endpoint = endpoint;
        this.codec = new JsonRpcCodec(maxMessageChars);
    }

    @Override
    public void start(Consumer<TransportEvent> events) {
        this.events = events;
        try {
            process = ChildProcesses.start(endpoint);
        } catch (IOException e) {
            throw new UpstreamUnavailableException("could not start " + description() + ": " + e.getMessage(), e);
        }
        stdin = process.getOutputStream();
        Process child = process;
        OutputStream in = stdin;
        Thread.ofVirtual().name("mcpx-stdio-in-" + child.pid()).start(() -> writeLines(in));
        stderrPump = Thread.ofVirtual().name("mcpx-stdio-err-" + child.pid()).start(() -> pumpStderr(child.getErrorStream()));
        // a platform thread: a virtual thread's blocking pipe read wakes a spare carrier each time (the scheduler
        // compensates for the pinned one)
        Thread.ofPlatform().daemon().name("mcpx-stdio-out-" + child.pid()).start(() -> pumpStdout(child, events));
    }

    private void pumpStdout(Process child, Consumer<TransportEvent> events) {
        LineReader lines = new LineReader(child.getInputStream(), codec.maxChars(), true);
        try {
            while (true) {
                LineReader.Line line = lines.next();
                if (line == null) {
                    break;
                }
                switch (line) {
                    case LineReader.Line.Text text -> deliver(text.bytes(), events);
                    case LineReader.Line.TooLong tooLong -> tooLong(tooLong, events);
                }
            }
        } catch (IOException e) {
            log.debug("stdout of {} failed: {}", description(), e.getMessage());
        }
        events.accept(new TransportEvent.Closed(exited(child)));
    }

    /**
     * A line over the limit is skipped. A response's caller learns why at once, wherever its id
     * stood; a line whose request cannot be told fails every call in flight rather than leave
     * its caller to time out; a request or notification of the upstream's is dropped.
     */
    private void tooLong(LineReader.Line.TooLong line, Consumer<TransportEvent> events) {
        String limit = codec.maxChars() + " bytes (maxMessageBytes)";
        RequestId id = line.head().responseId();
        if (id != null) {
            events.accept(new TransportEvent.RequestFailed(id, new McpErrorException(JsonRpcError.of(
                    ErrorCodes.INTERNAL_ERROR, "the answer of upstream " + description() + " exceeds the limit of "
                            + limit + " and was dropped"))));
        } else if (line.head().request()) {
            events.accept(new TransportEvent.Undecodable(line.excerpt(), new MalformedMessageException(
                    MalformedMessageException.Kind.TOO_LARGE, "line of more than " + limit, null)));
        } else {
            events.accept(new TransportEvent.AnswerLost(new McpErrorException(JsonRpcError.of(ErrorCodes.INTERNAL_ERROR,
                    "upstream " + description() + " wrote a line over the limit of " + limit
                            + " that names no request, so every call in flight on it failed"))));
        }
    }

    private void deliver(byte[] line, Consumer<TransportEvent> events) {
        if (blank(line)) {
            return;
        }
        try {
            events.accept(new TransportEvent.Received(codec.decode(line, 0, line.length)));
        } catch (MalformedMessageException e) {
            events.accept(new TransportEvent.Undecodable(excerpt(new String(line, StandardCharsets.UTF_8)), e));
        }
    }

    /** Whether the line is empty or white space only (as {@link String#isBlank} tells for the usual ones). */
    private static boolean blank(byte[] line) {
        for (byte b : line) {
            if (b < 0) {
                return new String(line, StandardCharsets.UTF_8).isBlank();
            }
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return true;
    }

    private McpException exited(Process child) {
        if (closing) {
            return new UpstreamUnavailableException("upstream " + description() + " was stopped");
        }
        if (broken != null) {
            return new UpstreamUnavailableException("upstream " + description() + " " + broken);
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
        LineReader lines = new LineReader(err, 64 * 1024, false);
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

    /**
     * Queues one line for the child's stdin and returns: the child's writer thread writes it,
     * so a sender never blocks on a full pipe (a grandchild can hold the pipe open after a kill)
     * and never waits for the write either. A request whose line cannot be written fails through
     * {@link TransportEvent.RequestFailed}; once the child's stdin has failed, every send fails
     * at once. A write that does not complete by its deadline means the child is broken: it is
     * killed (at its caller's {@link #abandon}, or at the next send or abandon), its callers fail
     * at once and the pool restarts it, as after a crash.
     */
    @Override
    public void send(Outbound outbound) {
        if (stdin == null || closing || broken != null) {
            throw new UpstreamUnavailableException("upstream " + description() + " is not running");
        }
        IOException failed = stdinFailed;
        if (failed != null) {
            throw stoppedReading(failed);
        }
        long now = System.nanoTime();
        PendingWrite current = writing;
        if (breakIfOverdue(current, now)) {
            // nothing of this message left: once the pool has restarted the child it may go again
            throw UpstreamUnavailableException.unreachable("upstream " + description() + " " + overdueReason(current), null);
        }
        Duration timeout = outbound.timeout() != null ? outbound.timeout() : DEFAULT_WRITE_TIMEOUT;
        RequestId request = outbound.message() instanceof JsonRpcMessage.Request r ? r.id() : null;
        writes.add(new PendingWrite(codec.encodeBytes(outbound.message()), request, now, timeout.toNanos()));
    }

    /**
     * The caller of request {@code id} stopped waiting. A line not yet begun is never written (the
     * child never saw the request, so it needs no cancellation: true). A line still being written
     * when its time is (all but) up means the child stopped reading: it is killed, and the caller
     * gets that reason instead of its timeout.
     *
     * @throws UpstreamUnavailableException the child was killed for not reading the request's line
     */
    @Override
    public boolean abandon(RequestId id) {
        long now = System.nanoTime();
        PendingWrite current = writing;
        // "all but": the caller's clock started a moment before this line was queued, so its timeout comes a little
        // before the line's own deadline; a caller that cancels early leaves a slow reader its time
        if (current != null && id.equals(current.request)
                && now - current.queuedAt >= current.timeoutNanos - current.timeoutNanos / 10) {
            String reason = overdueReason(current);
            breakChild(reason);
            throw new UpstreamUnavailableException("upstream " + description() + " " + reason);
        }
        breakIfOverdue(current, now);
        for (PendingWrite queued : writes) {
            if (id.equals(queued.request)) {
                return queued.state.compareAndSet(PendingWrite.WAITING, PendingWrite.ABANDONED);
            }
        }
        return false;
    }

    /** Kills the child when {@code current}, the write in progress, is past its deadline; whether it did. */
    private boolean breakIfOverdue(PendingWrite current, long now) {
        if (current == null || now - current.queuedAt < current.timeoutNanos || current.state.get() != PendingWrite.WRITING) {
            return false;
        }
        breakChild(overdueReason(current));
        return true;
    }

    private static String overdueReason(PendingWrite overdue) {
        return "stopped reading its stdin (a write did not complete within "
                + TimeUnit.NANOSECONDS.toMillis(overdue.timeoutNanos) + " ms) and was killed";
    }

    private UpstreamUnavailableException stoppedReading(IOException cause) {
        String why = broken;
        return new UpstreamUnavailableException("upstream " + description() + (why != null ? " " + why
                : " stopped reading: " + cause.getMessage()), cause);
    }

    /** The child's one writer: one thread for its life instead of one per line; ends at {@link PendingWrite#END}. */
    private void writeLines(OutputStream out) {
        try {
            for (PendingWrite pending = writes.take(); pending != PendingWrite.END; pending = writes.take()) {
                write(out, pending);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void write(OutputStream out, PendingWrite pending) {
        if (!pending.state.compareAndSet(PendingWrite.WAITING, PendingWrite.WRITING)) {
            return;
        }
        IOException failed = stdinFailed;
        if (failed != null) {
            fail(pending, stoppedReading(failed));
            return;
        }
        if (System.nanoTime() - pending.queuedAt >= pending.timeoutNanos) {
            // a line is never written late: its caller has given up on it (a starved scheduler, or queued behind a
            // slow write), and the child is not to blame for that, so it is not killed
            fail(pending, new UpstreamUnavailableException("upstream " + description() + ": the write did not begin within "
                    + TimeUnit.NANOSECONDS.toMillis(pending.timeoutNanos) + " ms"));
            return;
        }
        writeLock.lock();
        writing = pending;
        try {
            out.write(pending.line);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            // a closed pipe stays closed: every line after this one fails at once, none waits for its deadline
            stdinFailed = e;
            fail(pending, stoppedReading(e));
        } catch (RuntimeException e) {
            fail(pending, new UpstreamUnavailableException("upstream " + description() + ": write failed: " + e, e));
        } finally {
            writing = null;
            writeLock.unlock();
        }
    }

    /** A request whose line was not written fails now; a notification or response is only logged. */
    private void fail(PendingWrite pending, UpstreamUnavailableException error) {
        if (pending.request != null) {
            events.accept(new TransportEvent.RequestFailed(pending.request, error));
        } else {
            log.debug("{}", error.getMessage());
        }
    }

    /** One line on its way to the child's stdin; a line abandoned before it began is never written. */
    private static final class PendingWrite {
        static final int WAITING = 0;
        static final int WRITING = 1;
        static final int ABANDONED = 2;
        /** Put last by {@link #close}: the writer thread ends there. */
        static final PendingWrite END = new PendingWrite(new byte[0], null, 0, 0);

        final byte[] line;
        /** The id of the request this line carries; null for a notification or a response. */
        final RequestId request;
        final long queuedAt;
        final long timeoutNanos;
        final AtomicInteger state = new AtomicInteger(WAITING);

        PendingWrite(byte[] line, RequestId request, long queuedAt, long timeoutNanos) {
            this.line = line;
            this.request = request;
            this.queuedAt = queuedAt;
            this.timeoutNanos = timeoutNanos;
        }
    }

    /** Kills a child that no longer reads; its stdout then ends and the transport reports it closed. */
    private void breakChild(String reason) {
        Process p = process;
        if (p == null || closing) {
            return;
        }
        synchronized (this) {
            if (broken != null) {
                return;
            }
            broken = reason;
        }
        log.warn("upstream {} {}", description(), reason);
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
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
        writes.add(PendingWrite.END);
        if (!writeSettles()) {
            // a write stuck on a full pipe would block closing stdin: the child is not reading anyway
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        ChildProcesses.stop(p, GRACE);
    }

    /** Whether no write is stuck: the write lock comes free within the grace period. */
    private boolean writeSettles() {
        try {
            if (writeLock.tryLock(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                writeLock.unlock();
                return true;
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String excerpt(String line) {
        return line.length() <= 200 ? line : line.substring(0, 200) + "...";
    }
}

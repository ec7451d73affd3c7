package dev.mcpx.transport.stdio;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.MessageBytes;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeoutException;
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
    /** A write with no deadline of its own (none today) still gets one: a child that stops reading must not hold a thread forever. */
    static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(60);
    /**
     * What a child's stdin pipe holds unread without blocking its writer, at the least: one page
     * on Linux, whatever the pipe's size was set to. Elsewhere the least is not known, so every
     * line goes through the writer thread.
     */
    static final int PIPE_ROOM = "Linux".equals(System.getProperty("os.name")) ? 4096 : 0;

    private final UpstreamEndpoint.Stdio endpoint;
    private final JsonRpcCodec codec;
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Lines for the child's stdin, written in order by its one writer thread. */
    private final LinkedBlockingQueue<PendingWrite> writes = new LinkedBlockingQueue<>();
    /** Where the child's stdin stands: how much the child may not have read yet. */
    private final StdinBacklog backlog = new StdinBacklog();
    /** Lines the senders wrote themselves (tests). */
    private final AtomicInteger directWrites = new AtomicInteger();
    private final StderrTail stderrTail = new StderrTail(20);
    private volatile Process process;
    private volatile OutputStream stdin;
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
        if (MessageBytes.isBlank(line)) {
            return;
        }
        try {
            JsonRpcMessage message = codec.decode(line, 0, line.length);
            switch (message) {
                case Result result -> backlog.answered(result.id());
                case ErrorResponse error when error.id() != null -> backlog.answered(error.id());
                default -> { }
            }
            events.accept(new TransportEvent.Received(message));
        } catch (MalformedMessageException e) {
            events.accept(new TransportEvent.Undecodable(excerpt(new String(line, StandardCharsets.UTF_8)), e));
        }
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
     * Writes one line to the child's stdin. A child that stops reading fills the pipe and the
     * write blocks; so the child's writer thread writes it and the sender waits at most the
     * message's timeout (a grandchild can hold the pipe open after a kill, so a sender must never
     * be the one blocked in the write). A write that misses it means the child is broken: it is
     * killed, its callers fail at once and the pool restarts it, as after a crash. A line the pipe
     * surely has room for is written by the sender itself, which spares two thread hand-offs.
     */
    @Override
    public void send(Outbound outbound) {
        OutputStream out = stdin;
        if (out == null || closing || broken != null) {
            throw new UpstreamUnavailableException("upstream " + description() + " is not running");
        }
        byte[] line = codec.encodeBytes(outbound.message());
        RequestId request = outbound.message() instanceof Request r ? r.id() : null;
        if (writtenDirectly(out, line, request)) {
            return;
        }
        Duration deadline = outbound.timeout() != null ? outbound.timeout() : DEFAULT_WRITE_TIMEOUT;
        PendingWrite pending = new PendingWrite(line, request);
        writes.add(pending);
        try {
            pending.written.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new UpstreamUnavailableException("upstream " + description() + " stopped reading: "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            if (pending.state.compareAndSet(PendingWrite.WAITING, PendingWrite.ABANDONED)) {
                // the write never began (a starved scheduler, or queued behind another write): the child
                // is not to blame, so it is not killed, and the line is never written late
                throw new UpstreamUnavailableException("upstream " + description() + ": the write did not begin within "
                        + deadline.toMillis() + " ms");
            }
            String reason = "stopped reading its stdin (a write did not complete within "
                    + deadline.toMillis() + " ms) and was killed";
            breakChild(reason);
            throw new UpstreamUnavailableException("upstream " + description() + " " + reason);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpstreamUnavailableException("interrupted writing to upstream " + description(), e);
        }
    }

    /**
     * Writes {@code line} on the sender's thread when no other write is under way or queued (lines
     * keep their order) and the pipe has room for it even if the child read nothing more since it
     * last answered: such a write cannot block. False leaves the line to the writer thread.
     */
    private boolean writtenDirectly(OutputStream out, byte[] line, RequestId request) {
        if (!writes.isEmpty() || !writeLock.tryLock()) {
            return false;
        }
        try {
            if (!writes.isEmpty() || !backlog.hasRoom(line.length + 1, PIPE_ROOM)) {
                return false;
            }
            try {
                out.write(line);
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                throw new UpstreamUnavailableException("upstream " + description() + " stopped reading: " + e.getMessage(), e);
            }
            backlog.written(line.length + 1, request);
            directWrites.incrementAndGet();
            return true;
        } finally {
            writeLock.unlock();
        }
    }

    int directWrites() {
        return directWrites.get();
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
        writeLock.lock();
        try {
            if (!pending.state.compareAndSet(PendingWrite.WAITING, PendingWrite.WRITING)) {
                return;
            }
            out.write(pending.line);
            out.write('\n');
            out.flush();
            backlog.written(pending.line.length + 1, pending.request);
            pending.written.complete(null);
        } catch (IOException | RuntimeException e) {
            // the writer lives on: the next line fails as fast, never waits for a writer that died
            pending.written.completeExceptionally(e);
        } finally {
            pending.line = null;
            writeLock.unlock();
        }
    }

    /** One line on its way to the child's stdin; the sender may abandon it only before it begins. */
    private static final class PendingWrite {
        static final int WAITING = 0;
        static final int WRITING = 1;
        static final int ABANDONED = 2;
        /** Put last by {@link #close}: the writer thread ends there. */
        static final PendingWrite END = new PendingWrite(new byte[0], null);

        /**
         * Dropped once written or abandoned: the writer thread's frame keeps its last PendingWrite
         * while it waits for the next, which kept a message of several MB for the child's life.
         */
        byte[] line;
        /** The id of the request the line carries, or null. */
        final RequestId request;
        final CompletableFuture<Void> written = new CompletableFuture<>();
        final AtomicInteger state = new AtomicInteger(WAITING);

        PendingWrite(byte[] line, RequestId request) {
            this.line = line;
            this.request = request;
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

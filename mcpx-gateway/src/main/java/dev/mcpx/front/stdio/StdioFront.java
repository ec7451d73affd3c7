package dev.mcpx.front.stdio;

import dev.mcpx.client.Cancellation;
import dev.mcpx.front.CallThreads;
import dev.mcpx.front.FrontLimits;
import dev.mcpx.front.HostRequests;
import dev.mcpx.front.HostSession;
import dev.mcpx.front.ListChanges;
import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.Methods;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one host over stdin/stdout, newline-delimited JSON: stdout carries nothing but MCP.
 * Each request runs on a thread of its own ({@link CallThreads}); the host's session ({@link HostSession}) decides
 * what its messages mean. The host closing stdin ends it once every request it sent is answered
 * (each within its own deadline), so {@code echo REQUEST | mcpx serve --stdio} prints its answer;
 * a host that stops reading too ends it sooner by SIGTERM, as MCP's stdio shutdown says.
 */
public final class StdioFront {

    private static final Logger LOG = LoggerFactory.getLogger(StdioFront.class);

    /** Platform threads the host's calls run on before they take virtual ones ({@link CallThreads}). */
    static final int PLATFORM_THREADS = 16;

    private final HostRequests requests;
    private final ListChanges changes;
    private final InputStream in;
    private final OutputStream out;
    private final JsonRpcCodec codec = new JsonRpcCodec();
    private final ReentrantLock writing = new ReentrantLock();
    private final FrontLimits limits;
    private final HostSession session;
    private final CallThreads calls = new CallThreads(PLATFORM_THREADS, "mcpx-host",
            task -> Thread.ofVirtual().name("mcpx-host-v").start(task));
    /** Requests read and not yet answered on stdout (cancelled ones count until their call ends). */
    private final ReentrantLock answering = new ReentrantLock();
    private final Condition allAnswered = answering.newCondition();
    private int unanswered;

    public StdioFront(HostRequests requests, ListChanges changes, InputStream in, OutputStream out) {
        this(requests, changes, FrontLimits.DEFAULTS, in, out);
    }

    public StdioFront(HostRequests requests, ListChanges changes, FrontLimits limits, InputStream in, OutputStream out) {
        this.requests = requests;
        this.changes = changes;
        this.limits = limits;
        this.in = in;
        this.out = out;
        this.session = new HostSession(requests, "stdio", limits.callLimit(), this::send, HostSession.Replicas.NONE, null);
    }

    /** Serves until the host closes stdin. */
    public void run() throws IOException {
        Runnable unsubscribe = changes.subscribe(session::listsChanged);
        try (in) {
            HostLines lines = new HostLines(in, limits.maxMessageBytes());
            for (HostLines.Line line = lines.next(); line != null; line = lines.next()) {
                switch (line) {
                    case HostLines.Line.Text text when !text.blank() -> receive(text);
                    case HostLines.Line.Text blank -> {
                        // blank lines between messages are allowed
                    }
                    case HostLines.Line.TooLong tooLong -> {
                        requests.refused("maxMessageBytes");
                        send(new ErrorResponse(null, JsonRpcError.of(ErrorCodes.INVALID_REQUEST,
                                "message too large: the limit is " + limits.maxMessageBytes() + " bytes (maxMessageBytes)")));
                    }
                }
            }
            LOG.info("host closed stdin");
            session.inputEnded("closed stdin");
            awaitAnswers();
        } finally {
            unsubscribe.run();
            session.end("host disconnected");
            calls.shutdown();
        }
    }

    /** Returns once every request read so far was answered. */
    private void awaitAnswers() {
        answering.lock();
        try {
            if (unanswered > 0) {
                LOG.info("answering the {} requests the host sent before it closed stdin", unanswered);
            }
            while (unanswered > 0) {
                allAnswered.awaitUninterruptibly();
            }
        } finally {
            answering.unlock();
        }
    }

    private void receive(HostLines.Line.Text line) {
        JsonRpcMessage hostMessage;
        try {
            hostMessage = codec.decode(line.bytes(), line.offset(), line.length());
        } catch (MalformedMessageException e) {
            send(new ErrorResponse(e.id(), e.toError()));
            return;
        }
        switch (hostMessage) {
            case Request hostRequest when Methods.SUBSCRIPTIONS_LISTEN.equals(hostRequest.method()) -> session.listen(hostRequest);
            case Request hostRequest -> dispatch(hostRequest);
            case Notification notification -> session.notified(notification);
            default -> {
                // the host's answer to a sampling/elicitation/roots request mcpx passed to it
                if (!session.answered(hostMessage)) {
                    LOG.debug("ignored a response from the host that answers no pending request");
                }
            }
        }
    }

    /** Taken in on the reader thread (so a cancellation read next finds it), answered on a thread of its own. */
    private void dispatch(Request hostRequest) {
        HostSession.Call call = session.take(hostRequest, HostRequests.eraOf(hostRequest), new Cancellation());
        changeUnanswered(1);
        calls.execute(() -> {
            try {
                JsonRpcMessage answer = call.answer(this::send);
                if (answer != null) {
                    send(answer);
                }
            } finally {
                changeUnanswered(-1);
            }
        });
    }

    private void changeUnanswered(int delta) {
        answering.lock();
        try {
            unanswered += delta;
            if (unanswered == 0) {
                allAnswered.signalAll();
            }
        } finally {
            answering.unlock();
        }
    }

    /**
     * A host that reads slowly blocks this write: a lock, not a monitor (nor a PrintStream's), so
     * the waiting virtual threads do not pin their carriers (JDK 21-23). A host that went away
     * makes it fail quietly: its calls are cancelled when stdin closes.
     */
    private boolean send(JsonRpcMessage message) {
        byte[] line = codec.encodeLine(message);
        writing.lock();
        try {
            out.write(line);
            out.flush();
            return true;
        } catch (IOException e) {
            LOG.debug("the host no longer reads stdout: {}", e.toString());
            return false;
        } finally {
            writing.unlock();
        }
    }
}

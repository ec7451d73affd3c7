package dev.mcpx.transport;

import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Moves messages between mcpx and one upstream. A transport knows framing, HTTP and headers;
 * it knows no handshake, retries or ids (that is the client's job).
 *
 * <p>Everything that arrives (messages, per-request stream failures, the transport's death) is
 * delivered as a {@link TransportEvent} to the consumer given to {@link #start}.
 */
public interface Transport extends AutoCloseable {

    /** Opens the connection (spawns the process, ...). Events go to {@code events} from now on. */
    void start(Consumer<TransportEvent> events);

    /**
     * Sends one message. Returns once the message is handed over (stdio) or the upstream has
     * accepted it (HTTP status received); responses arrive as events. A transport may return
     * from sending a request before its status line (legacy HTTP does: a JSON answer's status
     * comes only with the result); a refusal then arrives as {@link TransportEvent.RequestFailed}
     * carrying the same typed exception.
     *
     * @throws dev.mcpx.protocol.McpException the typed reason the message was not accepted
     */
    void send(Outbound outbound);

    /**
     * Reads the answer to request {@code id}, sent by this thread with
     * {@link Outbound#senderCollects()}, on this thread, waiting {@code within} at most, and
     * delivers it as the usual events; returns at once when the transport left nothing to read.
     * An {@link #abandon} from another thread ends the wait. A transport that always delivers
     * answers on threads of its own does nothing here.
     */
    default void collect(RequestId id, Duration within) {
    }

    /**
     * The client finished a legacy handshake at {@code version}: HTTP transports send it in
     * {@code MCP-Protocol-Version} from now on.
     */
    default void handshakeCompleted(ProtocolVersion version) {
    }

    /**
     * The client sent {@code notifications/initialized}: a transport with a stream of the server's
     * own messages (legacy HTTP's GET) opens it now, and returns once the server has answered it
     * (waiting {@code within} at most: the deadline of the request a re-initialize serves), so no
     * request sent next overtakes it: a server would take a listen GET that arrives during a call's
     * stream for that stream's resume.
     */
    default void sessionReady(Duration within) {
    }

    /** The legacy session id the upstream issued, if any. */
    default Optional<String> sessionId() {
        return Optional.empty();
    }

    /**
     * Forgets {@code sessionId} if it is still the current one, and stops that session's listen
     * stream. A stale id (already replaced by a newer session) is ignored.
     */
    default void expireSession(String sessionId) {
    }

    /**
     * The client stopped waiting for {@code id} (cancelled or timed out). Returns true when the
     * transport's own action is the cancellation signal (modern HTTP closes the response
     * stream); otherwise the client sends {@code notifications/cancelled}.
     */
    default boolean abandon(RequestId id) {
        return false;
    }

    TransportKind kind();

    /** Who the upstream is, for logs and status: a command line or a URL, never secrets. */
    String description();

    /** The OS process id of a stdio upstream, if any. */
    default Optional<Long> pid() {
        return Optional.empty();
    }

    @Override
    void close();
}

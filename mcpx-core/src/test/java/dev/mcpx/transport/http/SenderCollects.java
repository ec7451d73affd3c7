package dev.mcpx.transport.http;

import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.ProtocolVersion;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.TransportKind;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A transport driven as the client drives it: every request sent with
 * {@link Outbound#senderCollects()}, its answer then collected, on a thread of its own so that a
 * test can go on while a request waits, as the client's other threads do.
 */
final class SenderCollects implements Transport {

    private final Transport delegate;

    SenderCollects(Transport delegate) {
        this.delegate = delegate;
    }

    @Override
    public void start(Consumer<TransportEvent> events) {
        delegate.start(events);
    }

    @Override
    public void send(Outbound outbound) {
        delegate.send(new Outbound(outbound.message(), outbound.headers(), outbound.timeout(), true));
        if (outbound.message() instanceof JsonRpcMessage.Request request) {
            Thread.ofVirtual().name("test-collect-" + request.id()).start(() -> delegate.collect(request.id(), Duration.ofSeconds(30)));
        }
    }

    @Override
    public void collect(RequestId id, Duration within) {
        delegate.collect(id, within);
    }

    @Override
    public void handshakeCompleted(ProtocolVersion version) {
        delegate.handshakeCompleted(version);
    }

    @Override
    public void sessionReady(Duration within) {
        delegate.sessionReady(within);
    }

    @Override
    public Optional<String> sessionId() {
        return delegate.sessionId();
    }

    @Override
    public void expireSession(String sessionId) {
        delegate.expireSession(sessionId);
    }

    @Override
    public boolean abandon(RequestId id) {
        return delegate.abandon(id);
    }

    @Override
    public TransportKind kind() {
        return delegate.kind();
    }

    @Override
    public String description() {
        return delegate.description();
    }

    @Override
    public void close() {
        delegate.close();
    }
}

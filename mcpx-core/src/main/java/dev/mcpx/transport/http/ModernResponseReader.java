package dev.mcpx.transport.http;

import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.MalformedMessageException;
import dev.mcpx.protocol.MessageBytes;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.transport.TransportEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one modern request's response body (an SSE stream or one JSON object), delivers every
 * message in it, and reports a body that ends without the response as a lost stream, at once.
 */
final class ModernResponseReader {

    private static final Logger LOG = LoggerFactory.getLogger(ModernResponseReader.class);

    private final JsonRpcCodec codec;
    private final int maxEventBytes;
    private final String description;
    private final Consumer<TransportEvent> events;

    ModernResponseReader(JsonRpcCodec codec, int maxEventBytes, String description, Consumer<TransportEvent> events) {
        this.codec = codec;
        this.maxEventBytes = maxEventBytes;
        this.description = description;
        this.events = events;
    }

    /**
     * Reads until the response to {@code id} arrives (then stops: nothing else may follow it)
     * or the stream ends.
     *
     * @param silenced true when the request was cancelled or the transport closed: an ending is
     *     then expected and not reported
     */
    void readEventStream(RequestId id, InputStream body, BooleanSupplier silenced) {
        String ending = "the response stream ended";
        Throwable cause = null;
        try (InputStream in = body) {
            SseReader reader = new SseReader(in, maxEventBytes);
            SseEvent event;
            while ((event = reader.next()) != null) {
                if (!"message".equals(event.event()) || event.data().isEmpty()) {
                    continue;
                }
                if (deliver(id, event.data())) {
                    return;
                }
            }
        } catch (SseReader.SseLimitException e) {
            ending = e.getMessage();
            cause = e;
        } catch (IOException e) {
            ending = "the response stream failed: " + e;
            cause = e;
        }
        lost(id, silenced, ending, cause);
    }

    /** A JSON answer's whole body: its response, or a lost stream when it holds none. */
    void readJsonBody(RequestId id, byte[] body, BooleanSupplier silenced) {
        if (MessageBytes.isBlank(body)) {
            lost(id, silenced, "the response body was empty", null);
        } else if (!deliver(id, body)) {
            lost(id, silenced, "the response body held no response to this request", null);
        }
    }

    /** A JSON answer's body broke off, or exceeded its limit. */
    void bodyFailed(RequestId id, Throwable cause, BooleanSupplier silenced) {
        lost(id, silenced, "the response body failed: " + cause, cause);
    }

    /** Delivers one message; true when it is the response to {@code id}. */
    private boolean deliver(RequestId id, String text) {
        JsonRpcMessage message;
        try {
            message = codec.decode(text);
        } catch (MalformedMessageException e) {
            events.accept(new TransportEvent.Undecodable(excerpt(text), e));
            return false;
        }
        return received(id, message);
    }

    /** {@link #deliver(RequestId, String)} for a JSON body, parsed from its bytes. */
    private boolean deliver(RequestId id, byte[] body) {
        JsonRpcMessage message;
        try {
            message = codec.decode(body, 0, body.length);
        } catch (MalformedMessageException e) {
            events.accept(new TransportEvent.Undecodable(excerpt(new String(body, StandardCharsets.UTF_8)), e));
            return false;
        }
        return received(id, message);
    }

    private boolean received(RequestId id, JsonRpcMessage message) {
        if (message instanceof Request request) {
            // 2026-07-28 servers ask through MRTR results; a request here has no one to answer it
            LOG.warn("{}: dropped {} request {} sent on a response stream", description, request.method(), request.id());
            return false;
        }
        if (message instanceof ErrorResponse error && error.id() == null) {
            // an error without an id on this request's own stream can only be about this request
            events.accept(new TransportEvent.Received(new ErrorResponse(id, error.error())));
            return true;
        }
        // a notification on this stream relates to this request (its log lines, its progress)
        events.accept(new TransportEvent.Received(message, id));
        return message instanceof Result r && r.id().equals(id)
                || message instanceof ErrorResponse e && id.equals(e.id());
    }

    private void lost(RequestId id, BooleanSupplier silenced, String ending, Throwable cause) {
        if (silenced.getAsBoolean()) {
            return;
        }
        LOG.debug("{}: response stream for {} lost: {}", description, id, ending);
        events.accept(new TransportEvent.RequestFailed(id, new StreamLostException(id, ending, cause)));
    }

    private static String excerpt(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}

package dev.mcpx.transport.http;

import dev.mcpx.transport.HttpAuthorization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.io.Content;

/**
 * The answer to one POST as Jetty's client delivers it, with no thread of ours waiting for it: a
 * 2xx event stream is handed over at its headers, for a thread of the receiver's to read; any other
 * body is buffered, up to its limit, and handed over whole from Jetty's callback (a waiting thread
 * per call cost about 60 us of CPU on the hop).
 */
final class PostAnswer implements Response.Listener {

    /**
     * Told of one answer, exactly once, on Jetty's threads or on the thread that collects a
     * {@link DirectPosts} answer: nothing here may block.
     */
    interface Receiver {
        /** A 2xx {@code text/event-stream} answer: {@code body} blocks, so read it on a thread of your own. */
        void eventStream(AnswerHead response, InputStream body);

        /** Any other answer with its body's bytes (a non-2xx one's cut at its limit), parsed as they came. */
        void answered(AnswerHead response, byte[] body);

        /** The exchange failed: before the status line when {@code response} is null, else while the body came. */
        void failed(AnswerHead response, Throwable cause);
    }

    private final HttpAuthorization authorization;
    private final int maxBody;
    private final int maxErrorBody;
    private final Receiver receiver;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile Response response;
    private volatile InputStreamResponseListener stream;
    private byte[] buffer = new byte[0];
    private int size;

    /**
     * @param maxBody      largest 2xx body: a longer one fails the answer
     * @param maxErrorBody the part of a non-2xx body kept (diagnostics or one JSON-RPC error)
     */
    PostAnswer(HttpAuthorization authorization, int maxBody, int maxErrorBody, Receiver receiver) {
        this.authorization = authorization;
        this.maxBody = maxBody;
        this.maxErrorBody = maxErrorBody;
        this.receiver = receiver;
    }

    @Override
    public void onHeaders(Response answer) {
        String nonce = answer.getHeaders().get("DPoP-Nonce");
        if (nonce != null) {
            authorization.nonceOffered(nonce);
        }
        response = answer;
        if (answer.getStatus() / 100 == 2 && ResponseBodies.isEventStream(answer.getHeaders().get("Content-Type"))) {
            InputStreamResponseListener body = new InputStreamResponseListener();
            body.onHeaders(answer);
            stream = body;
            if (settled.compareAndSet(false, true)) {
                receiver.eventStream(AnswerHead.of(answer), body.getInputStream());
            }
        }
    }

    @Override
    public void onContent(Response answer, Content.Chunk chunk, Runnable demander) {
        InputStreamResponseListener body = stream;
        if (body != null) {
            body.onContent(answer, chunk, demander);
            return;
        }
        if (settled.get()) {
            return;
        }
        ByteBuffer bytes = chunk.getByteBuffer();
        boolean success = answer.getStatus() / 100 == 2;
        int limit = success ? maxBody : maxErrorBody;
        int n = bytes.remaining();
        if (size + n > limit) {
            if (!success) {
                append(bytes, limit - size);
            }
            if (settled.compareAndSet(false, true)) {
                IOException tooLong = new IOException("response body exceeds the limit of " + limit + " bytes (maxMessageBytes)");
                if (success) {
                    receiver.failed(AnswerHead.of(answer), tooLong);
                } else {
                    receiver.answered(AnswerHead.of(answer), body());
                }
                answer.abort(tooLong);
            }
            return;
        }
        append(bytes, n);
        demander.run();
    }

    private void append(ByteBuffer bytes, int n) {
        if (size + n > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(size + n, Math.min(2 * buffer.length, maxBody)));
        }
        bytes.get(buffer, size, n);
        size += n;
    }

    private byte[] body() {
        return size == buffer.length ? buffer : Arrays.copyOf(buffer, size);
    }

    @Override
    public void onSuccess(Response answer) {
        InputStreamResponseListener body = stream;
        if (body != null) {
            body.onSuccess(answer);
        }
    }

    @Override
    public void onFailure(Response answer, Throwable failure) {
        InputStreamResponseListener body = stream;
        if (body != null) {
            body.onFailure(answer, failure);
        }
    }

    @Override
    public void onComplete(Result result) {
        InputStreamResponseListener body = stream;
        if (body != null) {
            body.onComplete(result);
            return;
        }
        if (!settled.compareAndSet(false, true)) {
            return;
        }
        Response answer = response;
        if (answer == null || result.getResponseFailure() != null) {
            receiver.failed(answer == null ? null : AnswerHead.of(answer), result.getFailure());
        } else {
            receiver.answered(AnswerHead.of(answer), body());
        }
    }
}

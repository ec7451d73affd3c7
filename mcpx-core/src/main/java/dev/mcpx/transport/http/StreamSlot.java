package dev.mcpx.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The one HTTP stream a reader thread holds at a time, so that another thread can stop it at
 * any moment: while the GET still waits for its status line, or while its body is read.
 *
 * <p>The body is taken over the moment the HTTP client creates it ({@link #bodyHandler()}), not
 * when the response future completes: cancelling that future races with the response arriving,
 * and a body nobody holds would keep the connection open with the server streaming to nobody.
 */
final class StreamSlot {

    private boolean stopped;
    private CompletableFuture<HttpResponse<InputStream>> opening;
    private InputStream body;

    synchronized boolean stopped() {
        return stopped;
    }

    /** Body handler for the exchanges given to {@link #open}: the slot holds each body as it is created. */
    HttpResponse.BodyHandler<InputStream> bodyHandler() {
        return info -> HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofInputStream(), in -> {
            hold(in);
            return in;
        });
    }

    /** Waits for the response; null when the slot was stopped meanwhile (exchange aborted, body closed). */
    HttpResponse<InputStream> open(CompletableFuture<HttpResponse<InputStream>> exchange)
            throws IOException, InterruptedException {
        synchronized (this) {
            if (stopped) {
                exchange.cancel(true);
                return null;
            }
            opening = exchange;
        }
        HttpResponse<InputStream> response;
        try {
            response = exchange.get();
        } catch (CancellationException e) {
            return null;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } finally {
            synchronized (this) {
                opening = null;
            }
        }
        return hold(response.body()) ? response : null;
    }

    /** Holds {@code in} as the current body; false (and {@code in} closed) when already stopped. */
    synchronized boolean hold(InputStream in) {
        if (stopped) {
            close(in);
            return false;
        }
        body = in;
        return true;
    }

    /** The reader is done with the current body. */
    synchronized void release() {
        close(body);
        body = null;
    }

    synchronized void stop() {
        stopped = true;
        if (opening != null) {
            opening.cancel(true);
        }
        close(body);
        body = null;
    }

    private static void close(InputStream in) {
        if (in == null) {
            return;
        }
        try {
            in.close();
        } catch (IOException e) {
            // already broken: nothing left to release
        }
    }
}

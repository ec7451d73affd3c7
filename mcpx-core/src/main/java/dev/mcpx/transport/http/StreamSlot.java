package dev.mcpx.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one HTTP stream a reader thread holds at a time, so that another thread can stop it at
 * any moment: while the GET still waits for its status line, or while its body is read.
 *
 * <p>The body is taken over the moment the HTTP client creates it ({@link #bodyHandler()}), not
 * when the response future completes: cancelling that future races with the response arriving,
 * and a body nobody holds would keep the connection open with the server streaming to nobody.
 *
 * <p>Guarded by a {@link ReentrantLock}: closing a body can block, and a virtual thread blocked
 * inside {@code synchronized} pins its carrier on JDK 21-23.
 */
final class StreamSlot {

    private final ReentrantLock lock = new ReentrantLock();
    private boolean stopped;
    private CompletableFuture<HttpResponse<InputStream>> opening;
    private InputStream body;

    boolean stopped() {
        lock.lock();
        try {
            return stopped;
        } finally {
            lock.unlock();
        }
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
        lock.lock();
        try {
            if (stopped) {
                exchange.cancel(true);
                return null;
            }
            opening = exchange;
        } finally {
            lock.unlock();
        }
        HttpResponse<InputStream> response;
        try {
            response = exchange.get();
        } catch (CancellationException e) {
            return null;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } finally {
            lock.lock();
            try {
                opening = null;
            } finally {
                lock.unlock();
            }
        }
        return hold(response.body()) ? response : null;
    }

    /** Holds {@code in} as the current body; false (and {@code in} closed) when already stopped. */
    boolean hold(InputStream in) {
        lock.lock();
        try {
            if (stopped) {
                close(in);
                return false;
            }
            body = in;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The reader is done with the current body. */
    void release() {
        lock.lock();
        try {
            close(body);
            body = null;
        } finally {
            lock.unlock();
        }
    }

    void stop() {
        lock.lock();
        try {
            stopped = true;
            if (opening != null) {
                opening.cancel(true);
            }
            close(body);
            body = null;
        } finally {
            lock.unlock();
        }
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

package dev.mcpx.testkit.chaos;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;

/**
 * Requests a fake upstream reads and then answers with nothing: it closes their connection
 * before one byte of the response, as a server does that dies right after reading a request, or
 * that closes a kept-alive connection just as the client sends on it. The JDK's HttpClient then
 * fails the POST with "header parser received no bytes" (or a reset). Armed per name (a tool
 * name, else the JSON-RPC method), to strike before the request runs or after it ran.
 */
public final class SilentCloses {

    /** Whether the upstream ran the request before it closed the connection. */
    public enum When { BEFORE_RUNNING, AFTER_RUNNING }

    private static final String REQUESTS_ON_CONNECTION = "mcpx.testkit.requestsOnConnection";

    private record Armed(int remaining, When when) {
    }

    private final Map<String, Armed> armed = new ConcurrentHashMap<>();
    private final AtomicInteger closed = new AtomicInteger();
    private final AtomicInteger closedKeptAlive = new AtomicInteger();

    /** The next {@code times} requests for {@code name} are read, run or not as {@code when} says, and get no answer. */
    public void arm(String name, int times, When when) {
        armed.put(name, new Armed(times, when));
    }

    /** Counts a request on its connection: the fake calls this first for every request it serves. */
    public static void arrived(Request request) {
        ConnectionMetaData connection = request.getConnectionMetaData();
        synchronized (connection) {
            Object seen = connection.getAttribute(REQUESTS_ON_CONNECTION);
            connection.setAttribute(REQUESTS_ON_CONNECTION, seen instanceof Integer n ? n + 1 : 1);
        }
    }

    /** Whether the request for {@code name}, at point {@code when}, is to get no answer; consumes one if so. */
    public boolean take(String name, When when) {
        if (name == null) {
            return false;
        }
        boolean[] taken = {false};
        armed.computeIfPresent(name, (k, a) -> {
            if (a.when() != when || a.remaining() <= 0) {
                return a;
            }
            taken[0] = true;
            return a.remaining() == 1 ? null : new Armed(a.remaining() - 1, a.when());
        });
        return taken[0];
    }

    /** Closes the request's connection without writing one byte of a response. */
    public void close(Request request, Callback callback) {
        Object seen = request.getConnectionMetaData().getAttribute(REQUESTS_ON_CONNECTION);
        if (seen instanceof Integer n && n > 1) {
            closedKeptAlive.incrementAndGet();
        }
        closed.incrementAndGet();
        request.getConnectionMetaData().getConnection().getEndPoint()
                .close(new IOException("connection closed without an answer, on purpose"));
        // the exchange is over as far as the handler goes; what Jetty then writes meets a closed socket
        callback.succeeded();
    }

    /** How many requests got no answer. */
    public int closed() {
        return closed.get();
    }

    /** How many of those had come on a kept-alive connection (one that had served a request before). */
    public int closedOnKeptAliveConnections() {
        return closedKeptAlive.get();
    }
}

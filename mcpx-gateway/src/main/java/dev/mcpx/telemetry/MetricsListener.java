package dev.mcpx.telemetry;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * {@code serve --stdio --metrics HOST:PORT}: {@code GET /metrics} on a listener of its own, for
 * a gateway whose hosts speak to it over stdio. Serves nothing else.
 */
public final class MetricsListener implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;

    private MetricsListener(Telemetry telemetry, InetSocketAddress address) {
        server = new Server();
        connector = new ServerConnector(server);
        connector.setHost(address.getHostString());
        connector.setPort(address.getPort());
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                boolean metrics = "/metrics".equals(Request.getPathInContext(request));
                if (!metrics || !"GET".equals(request.getMethod())) {
                    answer(response, callback, metrics ? 405 : 404, metrics ? "method not allowed\n" : "not found: try /metrics\n");
                    return true;
                }
                telemetry.scrape(request.getHeaders().get("Accept")).ifPresentOrElse(scrape -> scrape.send(response, callback),
                        () -> answer(response, callback, 404, "metrics are off (mcpx.metrics)\n"));
                return true;
            }
        });
        server.setStopTimeout(1_000);
    }

    private static void answer(Response response, Callback callback, int status, String text) {
        response.setStatus(status);
        response.getHeaders().put("Content-Type", "text/plain");
        response.write(true, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
    }

    /** Listens at {@code address} (port 0: the system picks one, see {@link #uri()}). */
    public static MetricsListener start(Telemetry telemetry, InetSocketAddress address) throws Exception {
        MetricsListener listener = new MetricsListener(telemetry, address);
        listener.server.start();
        return listener;
    }

    public URI uri() {
        String host = connector.getHost() == null ? "127.0.0.1" : connector.getHost();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + connector.getLocalPort()
                + "/metrics");
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            // stopping at exit: nothing left to tell
        }
    }
}

package dev.mcpx.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.Executors;

/**
 * The floor of the JDK's own HTTP server ({@code com.sun.net.httpserver}) as a front, for the
 * choice of mcpx's HTTP front (issue 17): a proxy of POST bodies in the model mcpx's front has on
 * Jetty, each request on a platform thread (a pool of 64, as the Jetty floor's) that writes the
 * upstream POST on a kept-alive connection of its own and reads the answer with a blocking read.
 * No MCP in it. {@code java -cp bench.jar dev.mcpx.bench.JdkServerFloorProxy UPSTREAM_URL};
 * prints {@code listening on URL}.
 */
public final class JdkServerFloorProxy {

    private JdkServerFloorProxy() {
    }

    public static void main(String[] args) throws Exception {
        URI upstream = URI.create(args[0]);
        String head = SocketFloorProxy.postHead(upstream);
        ThreadLocal<SocketFloorProxy.Connection> connections = new ThreadLocal<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        server.setExecutor(Executors.newFixedThreadPool(64));
        server.createContext("/mcp", exchange -> {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                reply(exchange, SocketFloorProxy.Connection.onThread(connections, upstream, head, body));
            }
        });
        server.start();
        System.out.println("listening on http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
        System.out.flush();
        Thread.currentThread().join();
    }


    private static void reply(HttpExchange exchange, byte[] answer) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }
}

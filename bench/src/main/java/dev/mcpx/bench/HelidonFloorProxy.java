package dev.mcpx.bench;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.WebServer;
import java.net.URI;

/**
 * The floor of Helidon 4's web server as a front, for the choice of mcpx's HTTP front (issue 17):
 * a proxy of POST bodies on Helidon's model, a virtual thread per host connection reading with
 * blocking calls, which here also writes the upstream POST on a kept-alive connection of its own
 * and reads the answer with a blocking read. No MCP in it. {@code java -cp bench.jar
 * dev.mcpx.bench.HelidonFloorProxy UPSTREAM_URL}; prints {@code listening on URL}.
 */
public final class HelidonFloorProxy {

    private HelidonFloorProxy() {
    }

    public static void main(String[] args) throws Exception {
        URI upstream = URI.create(args[0]);
        String head = SocketFloorProxy.postHead(upstream);
        // one host connection is one virtual thread, so the upstream connection is per host connection
        ThreadLocal<SocketFloorProxy.Connection> connections = new ThreadLocal<>();
        WebServer server = WebServer.builder().host("127.0.0.1").port(0)
                .routing(routing -> routing.post("/mcp", (request, response) -> {
                    byte[] body = request.content().as(byte[].class);
                    byte[] answer = SocketFloorProxy.Connection.onThread(connections, upstream, head, body);
                    response.header(HeaderNames.CONTENT_TYPE, "application/json");
                    response.send(answer);
                }))
                .build().start();
        System.out.println("listening on http://127.0.0.1:" + server.port() + "/mcp");
        System.out.flush();
        Thread.currentThread().join();
    }

}

package dev.mcpx.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.atomic.LongAdder;

/**
 * A collector's OTLP/HTTP trace endpoint that takes every export and keeps nothing: a gateway
 * tracing into it pays for making, batching and sending its spans, as it would in production.
 */
final class OtlpSink implements AutoCloseable {

    private final HttpServer server;
    private final LongAdder exports = new LongAdder();
    private final LongAdder bytes = new LongAdder();

    private OtlpSink() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/traces", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                bytes.add(in.readAllBytes().length);
                exports.increment();
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    static OtlpSink start() throws IOException {
        return new OtlpSink();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    long exports() {
        return exports.sum();
    }

    long bytes() {
        return bytes.sum();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

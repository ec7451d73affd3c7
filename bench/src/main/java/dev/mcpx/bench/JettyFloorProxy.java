package dev.mcpx.bench;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * The floor of mcpx's own HTTP stack: a proxy of POST bodies built as mcpx's hop is (Jetty's
 * server on virtual threads, each request's thread waiting for the upstream's answer from
 * Jetty's client, whose selector completes it), with no MCP in it. {@code java -cp bench.jar
 * dev.mcpx.bench.JettyFloorProxy UPSTREAM_URL}; prints {@code listening on URL}.
 */
public final class JettyFloorProxy {

    private JettyFloorProxy() {
    }

    public static void main(String[] args) throws Exception {
        URI upstream = URI.create(args[0]);
        QueuedThreadPool clientThreads = new QueuedThreadPool(16, 1);
        clientThreads.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        HttpClientTransportOverHTTP http11 = new HttpClientTransportOverHTTP(1);
        http11.setInvocationType(Invocable.InvocationType.NON_BLOCKING);
        HttpClient client = new HttpClient(http11);
        client.setExecutor(clientThreads);
        client.setIdleTimeout(0);
        client.start();
        Server server = new Server(new VirtualThreadPool(10_000));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                byte[] body = BufferUtil.toArray(Content.Source.asByteBuffer(request));
                CompletableFuture<byte[]> answer = new CompletableFuture<>();
                client.newRequest(upstream).method("POST").body(new BytesRequestContent("application/json", body))
                        .headers(headers -> headers.put("Accept", "application/json, text/event-stream"))
                        .send(new BufferingResponseListener(1 << 20) {
                            @Override
                            public void onComplete(Result result) {
                                if (result.isFailed()) {
                                    answer.completeExceptionally(result.getFailure());
                                } else {
                                    answer.complete(getContent());
                                }
                            }
                        });
                byte[] reply = answer.get();
                response.getHeaders().put("Content-Type", "application/json");
                response.write(true, ByteBuffer.wrap(reply), callback);
                return true;
            }
        });
        server.start();
        System.out.println("listening on http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
        System.out.flush();
        Thread.currentThread().join();
    }
}

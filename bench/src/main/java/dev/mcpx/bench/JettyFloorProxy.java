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
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * The floor of mcpx's own HTTP stack: a proxy of POST bodies on Jetty's server, with no MCP in it,
 * in one of two models. {@code virtual}: as mcpx's hop was built until FrontThreads (Jetty's
 * server on virtual threads, each request's thread waiting for the upstream's answer from Jetty's
 * client, whose selector completes it). {@code platform}: as it is built now (Jetty's server on
 * platform threads, each of which writes the upstream POST on a kept-alive connection of its own
 * and reads the answer with a blocking read, as DirectPosts does). {@code java -cp bench.jar
 * dev.mcpx.bench.JettyFloorProxy UPSTREAM_URL [virtual|platform]}; prints {@code listening on URL}.
 */
public final class JettyFloorProxy {

    private JettyFloorProxy() {
    }

    public static void main(String[] args) throws Exception {
        URI upstream = URI.create(args[0]);
        boolean platform = args.length > 1 && args[1].equals("platform");
        Server server = platform ? new Server(new QueuedThreadPool(64, 2)) : new Server(new VirtualThreadPool(10_000));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(platform ? blockingUpstream(upstream) : clientUpstream(upstream));
        server.start();
        System.out.println("listening on http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
        System.out.flush();
        Thread.currentThread().join();
    }

    /** Each request's thread waits on a future that Jetty's client completes from its selector. */
    private static Handler clientUpstream(URI upstream) throws Exception {
        QueuedThreadPool clientThreads = new QueuedThreadPool(16, 1);
        clientThreads.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        HttpClientTransportOverHTTP http11 = new HttpClientTransportOverHTTP(1);
        http11.setInvocationType(Invocable.InvocationType.NON_BLOCKING);
        HttpClient client = new HttpClient(http11);
        client.setExecutor(clientThreads);
        client.setIdleTimeout(0);
        client.start();
        return new Handler.Abstract() {
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
                reply(answer.get(), response, callback);
                return true;
            }
        };
    }

    /** Each request's thread carries the call to the upstream and back on its own connection. */
    private static Handler blockingUpstream(URI upstream) {
        String head = SocketFloorProxy.postHead(upstream);
        ThreadLocal<SocketFloorProxy.Connection> connections = new ThreadLocal<>();
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                byte[] body = BufferUtil.toArray(Content.Source.asByteBuffer(request));
                reply(SocketFloorProxy.Connection.onThread(connections, upstream, head, body), response, callback);
                return true;
            }
        };
    }

    private static void reply(byte[] answer, Response response, Callback callback) {
        response.getHeaders().put("Content-Type", "application/json");
        response.write(true, ByteBuffer.wrap(answer), callback);
    }
}
